import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumerProject } from './consumer-lock.js';

const REPOSITORY = resolve(import.meta.dirname, '../..');
const FIXTURE = join(import.meta.dirname, 'consumer');
const TSC = join(REPOSITORY, 'node_modules/typescript/bin/tsc');

interface Packed {
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

interface Ran {
  readonly status: number | null;
  readonly output: string;
}

const run = (command: string, args: readonly string[], cwd: string): Ran => {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

// The package as `npm publish` would ship it, installed into a project of a user's that depends on it alone.
// Packing skips the `prepare` build: the test gate has just built dist/ (`npm test`, or `npm run build`).
// Unset when beforeAll failed before it made the folder.
let work: string | undefined;
let packed: Packed;
let consumer: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'forkpoint-consumer-'));
  const output = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: REPOSITORY,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  packed = (JSON.parse(output) as Packed[])[0]!;
  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  const project = consumerProject(REPOSITORY, join(work, packed.filename));
  writeFileSync(join(consumer, 'package.json'), project.packageJson);
  writeFileSync(join(consumer, 'package-lock.json'), project.packageLock);
  // --offline: from npm's cache only, which `npm ci` filled; --ignore-scripts: better-sqlite3's native build
  // takes minutes, so the repository's binary of the same version stands in for it below.
  const install = run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], consumer);
  if (install.status !== 0) throw new Error(`npm ci in the consumer project failed:\n${install.output}`);
  const modules = join(consumer, 'node_modules');
  const binding = 'better-sqlite3/build/Release/better_sqlite3.node';
  mkdirSync(join(modules, 'better-sqlite3/build/Release'), { recursive: true });
  copyFileSync(join(REPOSITORY, 'node_modules', binding), join(modules, binding));
  // forkpoint/testing's own peer, and the Node types its declarations (vitest's) need: a user of that
  // subpath has both. Linked, so that the rest of the project sees neither.
  symlinkSync(join(REPOSITORY, 'node_modules/vitest'), join(modules, 'vitest'), 'dir');
  mkdirSync(join(modules, '@types'));
  symlinkSync(join(REPOSITORY, 'node_modules/@types/node'), join(modules, '@types/node'), 'dir');
  for (const file of readdirSync(FIXTURE)) copyFileSync(join(FIXTURE, file), join(consumer, file));
}, 120_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

// Each check takes a few seconds (tsc over the consumer project); the bound is for a machine that is busy.
describe('the packed package', { timeout: 60_000 }, () => {
  it('ships only what a user runs: compiled code, its declarations, the bin and the scenario data', () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toContain('dist/src/index.js');
    expect(paths).toContain('dist/src/index.d.ts');
    expect(paths).toContain('dist/scenarios/claims-triage/index.js');
    expect(paths).toContain('scenarios/claims-triage/synthetic/syn-01-hail-approve.json');
    const unwanted = paths.filter(
      (path) =>
        /(^|\/)(studies|test|scripts|src|node_modules)\//.test(path.replace(/^dist\/src\//, '')) ||
        /\.(map|tsbuildinfo)$/.test(path) ||
        (path.endsWith('.ts') && !path.endsWith('.d.ts')) ||
        (path.startsWith('dist/scenarios/') && path.endsWith('.d.ts')) ||
        /\.(db|db-wal|db-shm)$/.test(path),
    );
    expect(unwanted).toEqual([]);
  });

  it('type-checks a consumer of the root and every subpath but testing with no types but its own and its dependencies', () => {
    const check = run(process.execPath, [TSC, '-p', 'tsconfig.json', '--listFiles'], consumer);
    expect(check.output.split('\n').filter((line) => line.includes('error TS'))).toEqual([]);
    expect(check.status).toBe(0);
    const loaded = check.output.split('\n').filter((line) => line.startsWith('/'));
    // The installed package, not this repository's sources (a self-reference would hide what ships).
    expect(loaded).toContain(join(consumer, 'node_modules/forkpoint/dist/src/index.d.ts'));
    // xstate's declarations fail under exactOptionalPropertyTypes; better-sqlite3 has none of its own.
    const outside = loaded.filter((path) => /\/node_modules\/(xstate|better-sqlite3|@types)\//.test(path));
    expect(outside).toEqual([]);
  });

  it('type-checks a consumer of forkpoint/testing, with vitest and Node types as its user has them', () => {
    const check = run(process.execPath, [TSC, '-p', 'tsconfig.testing.json'], consumer);
    expect(check.output.split('\n').filter((line) => line.includes('error TS'))).toEqual([]);
    expect(check.status).toBe(0);
  });

  it('loads every entry point and runs the demo with only its dependencies installed', () => {
    // forkpoint/anthropic and forkpoint/ai-sdk load with no SDK installed: the adapters import none.
    const entries = [
      'forkpoint',
      'forkpoint/sqlite',
      'forkpoint/postgres',
      'forkpoint/analysis',
      'forkpoint/openai',
      'forkpoint/otel',
      'forkpoint/anthropic',
      'forkpoint/ai-sdk',
      'forkpoint/testing',
    ];
    const load = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `for (const entry of ${JSON.stringify(entries)}) console.log(entry, Object.keys(await import(entry)).length);`,
      ],
      consumer,
    );
    expect(load.output.trim().split('\n')).toEqual(
      entries.map((entry): unknown => expect.stringMatching(`^${entry} \\d+$`)),
    );
    const demo = run(process.execPath, [join(consumer, 'node_modules/.bin/forkpoint'), 'demo'], consumer);
    expect(demo.status, demo.output).toBe(0);
  });
});
