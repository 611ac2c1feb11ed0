import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';

// A fault and fuzz campaign against the CLI, as the most trusted stores test themselves. Bounded here so
// that `npm test` stays quick; `npm run fault-campaign` runs the same properties with FORKPOINT_FAULT_RUNS
// (default there 2000 per class) and a seed of its own.
const RUNS = Number(process.env.FORKPOINT_FAULT_RUNS ?? 100);
const SEED = Number(process.env.FORKPOINT_FAULT_SEED ?? 20261201);
const settings = { numRuns: RUNS, seed: SEED, endOnFailure: true };

const folder = tempFolder('forkpoint-faults-');
const source = join(folder.path, 'source.db');
const cassettes = join(folder.path, 'cassettes');
let copies = 0;
beforeAll(async () => {
  const record = (claim: string, runId: string, tier: string) =>
    cli([
      'record',
      'scenarios/claims-triage',
      '--claim',
      claim,
      '--at',
      '2026-03-04',
      '--run-id',
      runId,
      '--tier',
      tier,
      '--db',
      source,
    ]);
  await record('CLM-91077', '9b40c1d5', 'full');
  await record('CLM-91002', '5e000002', 'synthetic');
  const fork = await cli([
    'fork',
    '9b40c1d5',
    '--at-step',
    '4',
    '--tool-error',
    'timed out',
    '--run-id',
    'f0000001',
    '--db',
    source,
  ]);
  if (fork.exit !== 0) throw new Error(`the campaign's fork did not run: ${fork.stderr}`);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(cassettes);
  await cli(['export', '9b40c1d5', '-o', join(cassettes, 'sealed.json'), '--db', source]);
  await cli(['export', '9b40c1d5', '--plaintext', '-o', join(cassettes, 'plain.json'), '--db', source]);
  await cli(['export', '9b40c1d5', '--tier', 'structural', '-o', join(cassettes, 'structural.json'), '--db', source]);
  await cli(['export', '5e000002', '-o', join(cassettes, 'synthetic.json'), '--db', source]);
}, 30_000);
afterAll(() => {
  folder.cleanup();
});

const digest = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const copy = (): string => {
  const path = join(folder.path, `db-${copies++}.db`);
  copyFileSync(source, path);
  return path;
};

/** The contract every invocation keeps, whatever it was given. */
function expectContract(result: { exit: number; stdout: string; stderr: string }, label: string): void {
  expect(result.exit, `${label}: exit 3 is a bug in forkpoint: ${result.stderr}`).not.toBe(3);
  const errors = result.stderr.split('\n').filter((line) => line.startsWith('forkpoint: '));
  if (result.exit === 2) expect(errors, `${label}: one error line`).toHaveLength(1);
  for (const line of errors) expect(line, label).toMatch(/^forkpoint: [A-Z][A-Z_]+: \S/);
}

const READ_COMMANDS: ReadonlyArray<readonly string[]> = [
  ['runs'],
  ['show', '9b40c1d5'],
  ['show', 'f0000001', '--step', '5'],
  ['tree', '9b40c1d5'],
  ['compare', '9b40c1d5', 'f0000001'],
  ['export', '9b40c1d5'],
];

describe('fault campaign', () => {
  it('damaged databases: a read never exits 3, says one line, and leaves the file as it was', async () => {
    const size = readFileSync(source).length;
    const damage = fc.oneof(
      fc.record({ kind: fc.constant('cut' as const), at: fc.integer({ min: 0, max: size - 1 }) }),
      fc.record({
        kind: fc.constant('flip' as const),
        at: fc.integer({ min: 0, max: size - 1 }),
        byte: fc.integer({ min: 0, max: 255 }),
      }),
      fc.record({
        kind: fc.constant('sql' as const),
        statement: fc.constantFrom(
          "UPDATE runs SET input = 'not json'",
          "UPDATE runs SET outcome = '[1'",
          'UPDATE runs SET error = \'{"code":1}\'',
          'UPDATE runs SET parent_step = -3 WHERE parent_run_id IS NOT NULL',
          "UPDATE runs SET resumes = '{}'",
          "UPDATE runs SET status = 'lost'",
          'UPDATE blobs SET body = substr(body, 1, length(body) / 3)',
          "UPDATE steps SET checkpoint = '{'",
          'UPDATE steps SET response = \'{"$blob":"nowhere"}\'',
          'DELETE FROM blobs',
          'DELETE FROM schema_migrations',
          'DROP TABLE structural_cassettes',
          "UPDATE store_settings SET value = 'x' WHERE name = 'full_retention_hours'",
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(damage, fc.constantFrom(...READ_COMMANDS), async (harm, command) => {
        const path = copy();
        if (harm.kind === 'cut') truncateSync(path, harm.at);
        else if (harm.kind === 'flip') {
          const bytes = readFileSync(path);
          bytes[harm.at] = harm.byte;
          writeFileSync(path, bytes);
        } else {
          const Database = (await import('better-sqlite3')).default;
          const db = new Database(path);
          db.pragma('foreign_keys = OFF');
          db.exec(harm.statement);
          db.close();
        }
        const before = digest(path);
        const result = await cli([...command, '--json', '--db', path]);
        expectContract(result, `${JSON.stringify(harm)} then ${command.join(' ')}`);
        expect(digest(path), `${command.join(' ')} changed the file`).toBe(before);
      }),
      settings,
    );
  });

  it('mutated cassettes: replay never exits 3, never goes live, and says one line', async () => {
    const files = readdirSync(cassettes).map((name) => readFileSync(join(cassettes, name), 'utf8'));
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('cut' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }),
      fc.record({
        kind: fc.constant('replace' as const),
        from: fc.constantFrom(
          '"tier"',
          '"expiresAt"',
          '"seed"',
          '"step"',
          '"requestHash"',
          '"full"',
          '"synthetic"',
          '2026-03-07',
          '"output"',
          '"messages"',
          'true',
          '0.38',
        ),
        to: fc.constantFrom(
          '"x"',
          'null',
          '1e300',
          '-1',
          '[]',
          '{}',
          '"2099-01-01T00:00:00Z"',
          '"Wed, 04 Mar 2099 20:00:00 GMT"',
          '"synthetic"',
          '"a*999999999"',
          '',
        ),
      }),
      fc.record({ kind: fc.constant('bom' as const) }),
      fc.record({ kind: fc.constant('nest' as const), depth: fc.integer({ min: 150, max: 5000 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: files.length - 1 }), mutation, async (which, change) => {
        const original = files[which]!;
        const text =
          change.kind === 'cut'
            ? original.slice(0, Math.floor(original.length * change.fraction))
            : change.kind === 'replace'
              ? original.split(change.from).join(change.to)
              : change.kind === 'bom'
                ? `\uFEFF${original}`
                : `${'['.repeat(change.depth)}${']'.repeat(change.depth)}`;
        const file = join(folder.path, `cassette-${copies++}.json`);
        writeFileSync(file, text);
        const db = copy();
        const result = await cli([
          'replay',
          '--cassette',
          file,
          '--scenario',
          'scenarios/claims-triage',
          '--json',
          '--db',
          db,
        ]);
        expectContract(result, `${JSON.stringify(change)} on cassette ${which}`);
        if (result.exit <= 1 && result.stdout.startsWith('{')) {
          const body = JSON.parse(result.stdout) as { steps?: Array<{ provenance: string }> };
          expect((body.steps ?? []).every((step) => step.provenance === 'recorded')).toBe(true);
        }
      }),
      settings,
    );
  });

  it('command lines: nothing exits 3, an error is one line, and a command that fails or only reads changes no file', async () => {
    const words = fc.constantFrom(
      '9b40c1d5',
      'f0000001',
      'ffffffff',
      'zzzz',
      '--at-step',
      '-1',
      '0',
      '4',
      '99',
      '--tool-result',
      '-5',
      '--tool-merge',
      '{"fields":',
      '{}',
      '--tool-patch',
      '[{"op":"move","from":"/a","path":"/a/b"}]',
      '--override',
      '{"kind":"sytem-prompt"}',
      '--model',
      '',
      '--at',
      '2026-02-30',
      '--seed',
      '1.5',
      '--repeats',
      '0',
      '--side-effects',
      'live,live',
      'estimate_repair=maybe',
      '--json',
      '--step',
      '--build',
      'nope',
      '--scenario',
      'scenarios/claims-triage',
      'no/such/dir',
      '--now',
      'yesterday',
      '--tier',
      'structural',
      'synthetic',
      '--plaintext',
      '--limit',
      '\u0000',
      'ünïcødé',
      '--',
      '-o',
    );
    const commands = fc.constantFrom(
      'runs',
      'show',
      'tree',
      'compare',
      'export',
      'fork',
      'replay',
      'reexecute',
      'resume',
      'verify',
      'gc',
      'drift',
      'retention',
      'record',
      'suite',
      'eval',
      'lint',
      'unknown',
    );
    await fc.assert(
      fc.asyncProperty(commands, fc.array(words, { maxLength: 7 }), async (command, args) => {
        const db = copy();
        const before = digest(db);
        const argv = [
          command,
          ...args.map((word) => (word === '-o' ? join(folder.path, `out-${copies++}.json`) : word)),
        ];
        const result = await cli([...argv, '--db', db]);
        expectContract(result, argv.join(' '));
        const reads =
          ['runs', 'show', 'tree', 'compare', 'export', 'drift', 'lint', 'unknown'].includes(command) ||
          (command === 'retention' && !args.some((word) => word.startsWith('--')));
        if (result.exit >= 2 || reads)
          expect(digest(db), `${argv.join(' ')} (exit ${result.exit}) changed the database`).toBe(before);
      }),
      settings,
    );
  });

  it('overrides as JSON: any object a user might write is taken or refused with a code, never a bug', async () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.jsonValue(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 3 }),
    );
    const override = fc.record(
      {
        kind: fc.constantFrom(
          'tool-result',
          'tool-merge',
          'tool-patch',
          'tool-error',
          'model-response',
          'model-patch',
          'system-prompt',
          'model',
          'sytem-prompt',
          'tool_result',
          '',
        ),
        output: value,
        patch: value,
        operations: fc.oneof(
          value,
          fc.array(
            fc.record(
              {
                op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'nope'),
                path: fc.constantFrom('', '/fields', '/fields/damage_area_cm2/value', '/x~2', 'bad', '/-'),
                value,
                from: fc.constantFrom('/fields', '/none'),
              },
              { requiredKeys: ['op'] },
            ),
            { maxLength: 3 },
          ),
        ),
        message: value,
        response: value,
        system: value,
        model: value,
        extra: value,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(override, fc.constantFrom('3', '4', '9'), async (given, step) => {
        const db = copy();
        const before = digest(db);
        const result = await cli([
          'fork',
          '9b40c1d5',
          '--at-step',
          step,
          '--override',
          JSON.stringify(given),
          '--json',
          '--db',
          db,
        ]);
        expectContract(result, `--override ${JSON.stringify(given)} at ${step}`);
        if (result.exit === 2) expect(digest(db), 'a refused fork wrote nothing').toBe(before);
      }),
      { ...settings, numRuns: Math.ceil(RUNS / 2) },
    );
  });
});
