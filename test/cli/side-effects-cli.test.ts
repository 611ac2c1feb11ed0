import { beforeEach, describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.js';
import refundDesk, { liveCalls, worldLifetimes, worldSettings } from '../fixtures/scenarios/refund-desk/index.js';
import { DIR, FORK, PARENT, refundDeskCli } from '../support/refund-desk-cli.js';

// The firewall through fork; the other modes past a recording, resume and bad policies are in
// side-effects-modes-cli.test.ts.
const { run, record } = refundDeskCli();
const json = async (args: readonly string[]) => {
  const result = await run([...args, '--json']);
  return { exit: result.exit, stderr: result.stderr, body: JSON.parse(result.stdout) };
};

describe('the refund-desk fixture', () => {
  it('is the very module the test imports, so its counters are the CLI worlds’ counters', async () => {
    expect(await loadScenario(DIR)).toBe(refundDesk);
    await record();
    expect(liveCalls).toEqual({ model: 4, lookup_order: 1, lookup_customer: 1, refund: 1, notify_customer: 0 });
    const shown = await json(['show', PARENT]);
    expect(shown.body).toMatchObject({
      mode: 'record',
      status: 'completed',
      outcome: { refunded: 120, refund_id: 'RF-ORD-1-1' },
      sideEffects: null,
      scenario: DIR,
    });
  });
});

describe('the worlds a command opens', () => {
  it('are closed once the command has ended, a fork the firewall stopped included; a refused command opens none', async () => {
    const before = { ...worldLifetimes };
    await record();
    await run(FORK);
    await run([...FORK, '--side-effects', 'nope']);
    expect(worldLifetimes.opened - before.opened).toBe(2);
    expect(worldLifetimes.closed - before.closed).toBe(2);
  });
});

describe('forkpoint fork --side-effects', () => {
  beforeEach(record);

  it('refuses by default: exit 1, SIDE_EFFECT_BLOCKED at the refund, no refund made', async () => {
    const { exit, body } = await json(FORK);
    expect(exit).toBe(1);
    expect(body).toMatchObject({
      mode: 'fork',
      status: 'failed',
      error: { code: 'SIDE_EFFECT_BLOCKED', step: 6 },
      sideEffects: { default: 'refuse', tools: {} },
    });
    expect(body.steps).toHaveLength(5);
    expect(liveCalls.refund).toBe(1);
    const human = await run(FORK);
    expect(human.exit).toBe(1);
    expect(human.stdout.split('\n')[0]).toMatch(
      /^fork · run [0-9a-f]{12} · refund-desk\/baseline .* · side effects refuse$/,
    );
    expect(human.stdout).toMatch(/\nfailed at step 6: SIDE_EFFECT_BLOCKED: refund#0 \(step 6\) was not called/);
    expect(liveCalls.refund).toBe(1);
  });

  it('refund=simulate: exit 0 on the simulated refund', async () => {
    const { exit, body } = await json([...FORK, '--side-effects', 'refund=simulate']);
    expect(exit).toBe(0);
    expect(body).toMatchObject({
      status: 'completed',
      outcome: { refunded: 80, refund_id: 'SIM-ORD-1-0' },
      sideEffects: { default: 'refuse', tools: { refund: 'simulate' } },
    });
    expect(body.steps.map((step: { provenance: string }) => step.provenance)).toEqual([
      'inherited',
      'override',
      'live',
      'live',
      'live',
      'simulated',
      'live',
    ]);
    const human = await run(['show', body.runId]);
    expect(human.stdout).toMatch(/^ +6 +refund#0 +simulated /m);
    expect(human.stdout.split('\n')[0]).toMatch(/ · side effects refuse,refund=simulate$/);
    expect(liveCalls.refund).toBe(1);
  });

  it('live: the refund is made once more and marked in show, compare and tree', async () => {
    const { exit, body } = await json([...FORK, '--side-effects', 'live']);
    expect(exit).toBe(0);
    expect(body).toMatchObject({
      status: 'completed',
      outcome: { refunded: 80, refund_id: 'RF-ORD-1-2' },
      sideEffects: { default: 'live', tools: {} },
    });
    expect(liveCalls.refund).toBe(2);
    const fork = body.runId as string;
    const shown = await json(['show', fork]);
    expect(shown.body.steps.map((step: { sideEffect: boolean }) => step.sideEffect)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      false,
    ]);
    const human = await run(['show', fork]);
    expect(human.stdout).toMatch(/^ +6 +refund#0 +live side effect /m);
    expect(human.stdout.match(/live side effect/g)).toHaveLength(1);
    expect(human.stdout.split('\n')[0]).toMatch(/ · side effects live$/);
    const compared = await run(['compare', PARENT, fork]);
    expect(compared.stdout).toMatch(/refund#0 live side-effect/);
    const tree = await run(['tree', PARENT]);
    expect(tree.stdout).toMatch(new RegExp(`${fork} fork .* · live side effects: refund#0 \\(step 6\\)`));
    expect(tree.stdout.match(/live side effects/g)).toHaveLength(1);
    // The recording's refund was the original run's: nothing marks it.
    expect((await json(['show', PARENT])).body.steps.some((step: { sideEffect: boolean }) => step.sideEffect)).toBe(
      false,
    );
  });

  it('shows a policy that lets side effects through live in red, and one that does not in plain text', async () => {
    const live = await run([...FORK, '--side-effects', 'refund=live'], { env: {}, tty: true });
    expect(live.stdout.split('\n')[0]).toContain('\u001b[31mside effects refuse,refund=live\u001b[39m');
    const simulated = await run([...FORK, '--side-effects', 'simulate'], { env: {}, tty: true });
    expect(simulated.stdout.split('\n')[0]).toMatch(/ · side effects simulate$/);
    expect(liveCalls.refund).toBe(2);
  });

  it('simulate,refund=live: the named tool wins over the default', async () => {
    const { exit, body } = await json([...FORK, '--side-effects', 'simulate,refund=live']);
    expect(exit).toBe(0);
    expect(body.sideEffects).toEqual({ default: 'simulate', tools: { refund: 'live' } });
    expect(body.steps[5]).toMatchObject({ provenance: 'live', sideEffect: true });
    expect(liveCalls.refund).toBe(2);
  });

  it('blocks a tool the build does not declare, even with simulate', async () => {
    worldSettings.notify = true;
    const recorded = await json(['record', DIR, '--order', 'ORD-2', '--at', '2026-03-04', '--run-id', '0000bbbb']);
    expect(recorded.body.steps.map((step: { kind: string }) => step.kind)).toContain('notify_customer');
    expect(liveCalls).toMatchObject({ notify_customer: 1, refund: 2 });
    const { exit, body } = await json([
      'fork',
      '0000bbbb',
      '--at-step',
      '2',
      '--tool-merge',
      '{"amount":10}',
      '--side-effects',
      'simulate',
    ]);
    expect(exit).toBe(1);
    expect(body.error).toMatchObject({
      code: 'SIDE_EFFECT_BLOCKED',
      step: 6,
      message: expect.stringMatching(
        /^notify_customer#0 \(step 6\) was not called: notify_customer is not a tool the build declares/,
      ),
    });
    expect(liveCalls).toMatchObject({ notify_customer: 1, refund: 2 });
  });
});
