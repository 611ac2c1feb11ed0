import { beforeEach, describe, expect, it } from 'vitest';
import { liveCalls } from '../fixtures/scenarios/refund-desk/index.js';
import { FORK, LATER, PARENT, refundDeskCli } from '../support/refund-desk-cli.js';

// The firewall in every mode past a recording besides fork, in resume, and a bad --side-effects.
const { run, record } = refundDeskCli();
const json = async (args: readonly string[]) => {
  const result = await run([...args, '--json']);
  return { exit: result.exit, stderr: result.stderr, body: JSON.parse(result.stdout) };
};
const runCount = async () => (await json(['runs'])).body.runs.length as number;

describe('every other mode past the recording refunds nothing by default', () => {
  beforeEach(record);

  it('reexecute: exit 1, SIDE_EFFECT_BLOCKED', async () => {
    const { exit, body } = await json(['reexecute', PARENT, '--at', LATER]);
    expect(exit).toBe(1);
    expect(body).toMatchObject({
      mode: 'reexecution',
      status: 'failed',
      error: { code: 'SIDE_EFFECT_BLOCKED', step: 6 },
    });
    expect(liveCalls).toMatchObject({ lookup_order: 2, refund: 1 });
    const simulated = await json(['reexecute', PARENT, '--at', LATER, '--side-effects', 'refund=simulate']);
    expect(simulated).toMatchObject({ exit: 0, body: { status: 'completed', outcome: { refund_id: 'SIM-ORD-1-0' } } });
    expect(liveCalls.refund).toBe(1);
  });

  it('replay --fidelity --on-miss live of another prompt: goes live at step 1, exit 1 at the refund', async () => {
    const { exit, body } = await json(['replay', PARENT, '--fidelity', '--on-miss', 'live', '--build', 'terse']);
    expect(exit).toBe(1);
    expect(body).toMatchObject({
      mode: 'replay:fidelity',
      status: 'failed',
      error: { code: 'SIDE_EFFECT_BLOCKED', step: 6 },
      sideEffects: { default: 'refuse', tools: {} },
    });
    expect(body.findings[0]).toMatchObject({ step: 1, kind: 'model' });
    expect(liveCalls).toMatchObject({ lookup_order: 2, refund: 1 });
    const simulated = await json([
      'replay',
      PARENT,
      '--fidelity',
      '--on-miss',
      'live',
      '--build',
      'terse',
      '--side-effects',
      'refund=simulate',
    ]);
    expect(simulated).toMatchObject({ exit: 0, body: { status: 'completed', outcome: { refund_id: 'SIM-ORD-1-0' } } });
    expect(liveCalls.refund).toBe(1);
  });

  it('verify --mode reexecution: verdict blocked, exit 1', async () => {
    const { exit, body } = await json([
      'verify',
      PARENT,
      '--candidate',
      'terse',
      '--baseline',
      'baseline',
      '--mode',
      'reexecution',
      '--at',
      LATER,
    ]);
    expect(exit).toBe(1);
    expect(body).toMatchObject({
      verdict: 'blocked',
      mode: 'reexecution',
      candidate: { outcomes: { 'failed: SIDE_EFFECT_BLOCKED': 1 } },
      control: { outcomes: { 'failed: SIDE_EFFECT_BLOCKED': 1 } },
    });
    expect(liveCalls.refund).toBe(1);
    const human = await run([
      'verify',
      PARENT,
      '--candidate',
      'terse',
      '--baseline',
      'baseline',
      '--mode',
      'reexecution',
      '--at',
      LATER,
    ]);
    expect(human.stdout).toMatch(/\nverdict: blocked: an arm was stopped by the side-effect firewall/);
    expect(liveCalls.refund).toBe(1);
  });

  it('divergence-report: the stopped re-execution is counted blocked', async () => {
    const { exit, body } = await json(['divergence-report', '--runs', PARENT, '--at', LATER]);
    expect(exit).toBe(0);
    const counted = body.rows
      .filter((row: { count: number }) => row.count > 0)
      .map((row: { source: string; count: number }) => [row.source, row.count]);
    expect(counted).toEqual([['blocked', 1]]);
    expect(liveCalls.refund).toBe(1);
  });
});

describe('forkpoint resume of a blocked fork', () => {
  beforeEach(record);

  it('--side-effects refund=simulate: exit 0, same run, attempt 2 from step 6', async () => {
    const fork = await json(FORK);
    const runs = await runCount();
    const { exit, body } = await json(['resume', fork.body.runId, '--side-effects', 'refund=simulate']);
    expect(exit).toBe(0);
    expect(body).toMatchObject({
      runId: fork.body.runId,
      mode: 'fork',
      status: 'completed',
      outcome: { refunded: 80, refund_id: 'SIM-ORD-1-0' },
      resumed: { attempt: 2, fromStep: 6, after: 'SIDE_EFFECT_BLOCKED' },
    });
    expect(body.steps.map((step: { attempt: number }) => step.attempt)).toEqual([1, 1, 1, 1, 1, 2, 2]);
    expect(await runCount()).toBe(runs);
    const shown = await run(['show', fork.body.runId]);
    expect(shown.stdout.split('\n')[0]).toMatch(
      / · side effects refuse · resumed at step 6 \(attempt 2, after SIDE_EFFECT_BLOCKED, [^)]+\) · side effects refuse,refund=simulate$/,
    );
    expect(liveCalls.refund).toBe(1);
  });

  it('without --side-effects: blocked again, exit 1, no refund', async () => {
    const fork = await json(FORK);
    const { exit, body } = await json(['resume', fork.body.runId]);
    expect(exit).toBe(1);
    expect(body).toMatchObject({
      status: 'failed',
      error: { code: 'SIDE_EFFECT_BLOCKED', step: 6 },
      resumed: { attempt: 2 },
    });
    expect(liveCalls.refund).toBe(1);
  });

  it.each([['nope'], ['refund=later'], ['lookup_customer=live'], ['notify_customer=simulate']])(
    'refuses --side-effects %s with USAGE (exit 2), leaving the run as it was',
    async (policy) => {
      const fork = await json(FORK);
      const before = await json(['show', fork.body.runId]);
      const result = await run(['resume', fork.body.runId, '--side-effects', policy]);
      expect(result.exit).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^forkpoint: USAGE: [^\n]*\n$/);
      expect((await json(['show', fork.body.runId])).body).toEqual(before.body);
      expect(liveCalls.refund).toBe(1);
    },
  );
});

describe('a bad --side-effects is a USAGE error: exit 2, one line on stderr, no run', () => {
  beforeEach(record);

  it.each([
    [[...FORK, '--side-effects', 'yolo'], /--side-effects must be one of refuse, simulate, live, got "yolo"/],
    [
      [...FORK, '--side-effects', 'refund=maybe'],
      /--side-effects refund must be one of refuse, simulate, live, got "maybe"/,
    ],
    [[...FORK, '--side-effects', 'simulate,live'], /gives a choice for every tool twice/],
    [[...FORK, '--side-effects', 'refund=live,refund=simulate'], /names tool refund twice/],
    [[...FORK, '--side-effects', 'refund=live=now'], /takes refuse\|simulate\|live, or TOOL=CHOICE pairs/],
    [[...FORK, '--side-effects', 'simulate,'], /takes refuse\|simulate\|live, or TOOL=CHOICE pairs/],
    [[...FORK, '--side-effects', 'lookup_order=live'], /names tool "lookup_order", which is read-only/],
    [
      [...FORK, '--side-effects', 'notify_customer=live'],
      /names tool "notify_customer", which the build does not declare/,
    ],
    [['reexecute', PARENT, '--at', LATER, '--side-effects', 'sometimes'], /must be one of refuse, simulate, live/],
    [
      ['replay', PARENT, '--fidelity', '--side-effects', 'simulate'],
      /--side-effects only applies with --fidelity --on-miss live/,
    ],
    [['replay', PARENT, '--side-effects', 'live'], /--side-effects only applies with --fidelity --on-miss live/],
    [
      [
        'replay',
        PARENT,
        '--fidelity',
        '--on-miss',
        'live',
        '--build',
        'terse',
        '--side-effects',
        'lookup_customer=simulate',
      ],
      /which is read-only/,
    ],
    [
      ['verify', PARENT, '--candidate', 'terse', '--baseline', 'baseline', '--side-effects', 'simulate'],
      /--side-effects only applies to --mode reexecution/,
    ],
    [
      [
        'verify',
        PARENT,
        '--candidate',
        'terse',
        '--baseline',
        'baseline',
        '--mode',
        'reexecution',
        '--at',
        LATER,
        '--side-effects',
        'refund=yes',
      ],
      /must be one of/,
    ],
    [['divergence-report', '--runs', PARENT, '--at', LATER, '--side-effects', 'bogus'], /must be one of/],
  ])('%j', async (args, message) => {
    const runs = await runCount();
    const result = await run(args);
    expect(result.exit).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^forkpoint: USAGE: [^\n]*\n$/);
    expect(result.stderr).toMatch(message);
    expect(await runCount()).toBe(runs);
    expect(liveCalls).toEqual({ model: 4, lookup_order: 1, lookup_customer: 1, refund: 1, notify_customer: 0 });
  });
});
