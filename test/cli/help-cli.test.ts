import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli-harness.js';

// Every command the CLI has, in the order help lists them: a command missing from here, or one too many, fails.
const COMMANDS = [
  'record',
  'record-batch',
  'replay',
  'reexecute',
  'fork',
  'resume',
  'approve',
  'compare',
  'verify',
  'divergence-report',
  'suite',
  'eval',
  'drift',
  'lint',
  'runs',
  'show',
  'tree',
  'similar',
  'classes',
  'export',
  'copy',
  'ui',
  'report',
  'gc',
  'retention',
  'demo',
];

const REFUND_DESK = 'test/fixtures/scenarios/refund-desk';

describe('forkpoint help', () => {
  it('lists every command, and help last, in the program help', async () => {
    const { exit, stdout, stderr } = await cli(['--help']);
    expect(exit).toBe(0);
    expect(stderr).toBe('');
    const listed = [...stdout.matchAll(/^ {2}([a-z-]+) /gm)].map((match) => match[1]);
    expect(listed).toEqual([...COMMANDS, 'help']);
    expect(stdout).toMatch(
      /^exit status: 0 success, 1 the run failed or diverged, 2 bad usage or input, 3 internal error$/m,
    );
  });

  it('prints the program help and exits 2 when no command is given', async () => {
    const { exit, stdout } = await cli([]);
    expect(exit).toBe(2);
    expect(stdout).toMatch(/^Usage: forkpoint <command> \[options\]/);
  });

  it.each(COMMANDS)('generates the help of %s, with the options every command takes', async (name) => {
    const { exit, stdout, stderr } = await cli([name, '--help']);
    expect(exit).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(new RegExp(`^Usage: forkpoint ${name} `));
    for (const option of ['--db <PATH|URL>', '--synchronous <LEVEL>', '--now <TIMESTAMP>', '--json', '-h, --help'])
      expect(stdout).toContain(option);
    // `help NAME` says the same as `NAME --help`.
    expect((await cli(['help', name])).stdout).toBe(stdout);
  });

  it("lists the built-in scenario's input flags in record --help when no scenario directory is given", async () => {
    const { exit, stdout } = await cli(['record', '--help']);
    expect(exit).toBe(0);
    expect(stdout).toMatch(
      /\nInput flags of scenario claims-triage:\n {2}--claim <VALUE> +the claim to triage, e\.g\. CLM-91077\n/,
    );
  });

  it("lists the named scenario's flags, and only those, when its directory is given", async () => {
    const builtIn = await cli(['record', 'scenarios/claims-triage', '--help']);
    expect(builtIn.stdout).toMatch(/^ {2}--claim <VALUE> /m);
    const other = await cli(['record', REFUND_DESK, '--help']);
    expect(other.exit).toBe(0);
    expect(other.stdout).toMatch(/\nInput flags of scenario refund-desk:\n {2}--order <VALUE> +the order to refund/);
    expect(other.stdout).not.toContain('--claim');
  });

  it('lists the batch flag in record-batch --help and the input flags in lint --help', async () => {
    expect((await cli(['record-batch', '--help'])).stdout).toMatch(
      /^ {2}--claims <ALL\|VALUE,\.\.\.> +the claims to record: ALL, or a comma-separated list$/m,
    );
    expect((await cli(['lint', '--help'])).stdout).toMatch(/^ {2}--claim <VALUE> /m);
  });

  it('refuses help for a command that does not exist', async () => {
    const { exit, stderr } = await cli(['help', 'frobnicate']);
    expect(exit).toBe(2);
    expect(stderr).toBe("forkpoint: USAGE: unknown command 'frobnicate'; see `forkpoint --help`\n");
  });
});

describe('forkpoint parse errors', () => {
  it.each([
    ['an unknown command', ['frobnicate', '9b40c1d5'], /unknown command 'frobnicate'; see `forkpoint --help`/],
    ['an unknown option', ['runs', '--colour'], /unknown option '--colour'; see `forkpoint runs --help`/],
    ['a likely typo', ['runs', '--limt', '3'], /unknown option '--limt' \(Did you mean --limit\?\)/],
    ['a missing argument', ['show'], /missing required argument 'run-id'; see `forkpoint show --help`/],
    [
      'an extra argument',
      ['show', '9b40c1d5', 'again'],
      /too many arguments for 'show'\. Expected 1 argument but got 2/,
    ],
    ['a missing option value', ['runs', '--limit'], /option '--limit <N>' argument missing/],
    ['a bad number', ['runs', '--limit', 'ten'], /--limit must be a whole number from 1 to \d+, got "ten"/],
    ['a bad choice', ['runs', '--mode', 'rewind'], /argument 'rewind' is invalid\. Allowed choices are record, /],
    ['a bad run id', ['show', '9B40'], /run id/],
    [
      'a bad clock',
      ['runs', '--now', 'tomorrow'],
      /--now must be an ISO 8601 timestamp such as 2026-03-07T10:00:00Z, got "tomorrow"/,
    ],
  ])('%s is one USAGE line, exit 2, no stack trace', async (_name, args, message) => {
    const { exit, stdout, stderr } = await cli(args);
    expect(exit).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^forkpoint: USAGE: [^\n]+\n$/);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('prints the parse error as one JSON document too under --json', async () => {
    const { exit, stdout } = await cli(['runs', '--mode', 'rewind', '--json']);
    expect(exit).toBe(2);
    expect(JSON.parse(stdout)).toEqual({
      error: { code: 'USAGE', message: expect.stringMatching(/^option '--mode <MODE>' argument 'rewind' is invalid/) },
    });
  });

  it("says where a scenario's flags come from when its directory is not right after the command", async () => {
    const withFlag = await cli(['record', '--at', '2026-03-04', REFUND_DESK, '--order', 'ORD-1', '--db', ':memory:']);
    expect(withFlag.exit).toBe(2);
    expect(withFlag.stderr).toMatch(
      /^forkpoint: USAGE: unknown option '--order'; a scenario's input flags are known when its directory comes right after the command \(`forkpoint record DIR \.\.\.`\)/,
    );
    const withoutFlag = await cli(['record', '--at', '2026-03-04', REFUND_DESK, '--db', ':memory:']);
    expect(withoutFlag.exit).toBe(2);
    expect(withoutFlag.stderr).toMatch(/^forkpoint: USAGE: name the scenario directory right after "record"/);
  });

  it('takes a scenario directory anywhere on the line when it is a built-in one', async () => {
    const { exit, stdout } = await cli([
      'record',
      '--at',
      '2026-03-04',
      'scenarios/claims-triage',
      '--claim',
      'CLM-91077',
      '--db',
      ':memory:',
      '--json',
    ]);
    expect(exit).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({
      mode: 'record',
      status: 'failed',
      error: { code: 'VALIDATION_FAILED' },
    });
  });
});
