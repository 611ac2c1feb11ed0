import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';
import { databaseRows } from '../support/database-rows.js';

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(() => {
  folder = tempFolder('forkpoint-approve-cli-');
  db = join(folder.path, 'forkpoint.db');
});
afterEach(() => {
  folder.cleanup();
});

interface JsonStep {
  readonly step: number;
  readonly kind: string;
  readonly index: number;
  readonly provenance: string;
  readonly attempt: number;
  readonly requestHash: string;
  readonly response: { readonly output: Record<string, unknown>; readonly isError: boolean };
}
interface JsonRun {
  readonly mode: string;
  readonly runId: string;
  readonly status: string;
  readonly outcome: Record<string, unknown> | null;
  readonly steps: JsonStep[];
}

/** CLM-91077 on 2026-03-09 with the supervised build: its payout of 1903 waits for a person's approval. */
const recordSupervised = (claim = 'CLM-91077', ...extra: string[]) =>
  cli([
    'record',
    'scenarios/claims-triage',
    '--build',
    'supervised',
    '--claim',
    claim,
    '--at',
    '2026-03-09',
    '--seed',
    '20260309',
    '--db',
    db,
    ...extra,
  ]);
const approve = (...args: string[]) => cli(['approve', ...args, '--db', db]);
const parsed = (stdout: string): JsonRun => JSON.parse(stdout) as JsonRun;
const callsOf = (run: JsonRun) => run.steps.map((step) => `${step.kind}#${step.index}`);

/** The request hash the waiting run's human output names for `--call`. */
async function waitingCall(): Promise<string> {
  const shown = await cli(['show', 'a0091077', '--db', db]);
  const hash = /approve a0091077 --call ([0-9a-f]{16})/.exec(shown.stdout)?.[1];
  if (hash === undefined) throw new Error(`show names no call to approve:\n${shown.stdout}`);
  return hash;
}

describe('forkpoint record --build supervised', () => {
  it('exits 0 with the run at rest, awaiting approval, and names the call: tool, input, request hash', async () => {
    const human = await recordSupervised('CLM-91077', '--run-id', 'a0091077');
    expect(human.exit).toBe(0);
    expect(human.stdout).toMatch(
      /^ +9 +model#4 +live +[0-9a-f]{16} +asks issue_payment \{"claim_id":"CLM-91077","amount":1903,"currency":"EUR"\}$/m,
    );
    expect(human.stdout).toContain(
      "awaiting-approval: stopped at rest after step 9, before issue_payment#0, which needs a person's approval",
    );
    expect(human.stdout).toMatch(
      /^ {2}the call: issue_payment#0 \{"amount":1903,"claim_id":"CLM-91077","currency":"EUR"\} \(step 10\), request ([0-9a-f]{16})\n {2}approve it: forkpoint approve a0091077 --call \1\n {2}reject it: {2}forkpoint approve a0091077 --call \1 --reject --reason TEXT$/m,
    );
    const json = await recordSupervised('CLM-91077', '--json');
    expect(json.exit).toBe(0);
    expect(parsed(json.stdout)).toMatchObject({ mode: 'record', status: 'awaiting-approval', outcome: null });
  });

  it('pays a payout under the limit without asking anyone (CLM-91002: 779)', async () => {
    const result = await recordSupervised('CLM-91002', '--json');
    expect(result.exit).toBe(0);
    const run = parsed(result.stdout);
    expect(run).toMatchObject({ status: 'completed', outcome: { decision: 'approve', payout: 779 } });
    expect(callsOf(run)).toContain('issue_payment#0');
    expect(callsOf(run)).not.toContain('approval#0');
  });
});

describe('forkpoint approve', () => {
  it('continues the waiting run in place: the answer is a human step bound to the call, then the payment is made', async () => {
    await recordSupervised('CLM-91077', '--run-id', 'a0091077');
    const call = await waitingCall();
    const result = await approve('a0091077', '--call', call, '--by', 'dana', '--reason', 'photos match', '--json');
    expect(result.exit).toBe(0);
    const run = parsed(result.stdout);
    expect(run).toMatchObject({ mode: 'record', runId: 'a0091077', status: 'completed' });
    expect(run.outcome).toMatchObject({ decision: 'approve', payout: 1903 });
    expect(callsOf(run).slice(9)).toEqual(['approval#0', 'issue_payment#0', 'model#5']);
    expect(run.steps[9]).toMatchObject({
      provenance: 'human',
      attempt: 2,
      response: {
        output: { approved: true, by: 'dana', note: 'photos match', requestHash: call },
        isError: false,
      },
    });
    expect(run.steps[10]).toMatchObject({ provenance: 'live', attempt: 2, requestHash: call });
    expect(String(run.outcome?.reason)).toContain(`Paid as ${String(run.steps[10]?.response.output.payment_id)}.`);
  });

  it('refuses a second answer with exit 2, APPROVAL_NOT_PENDING, and writes nothing', async () => {
    await recordSupervised('CLM-91077', '--run-id', 'a0091077');
    expect((await approve('a0091077', '--by', 'dana')).exit).toBe(0);
    const before = databaseRows(db);
    const again = await approve('a0091077', '--by', 'erin', '--reject', '--reason', 'too late');
    expect(again.exit).toBe(2);
    expect(again.stderr).toMatch(
      /^forkpoint: APPROVAL_NOT_PENDING: run a0091077 waits for no approval: it completed\./,
    );
    expect(again.stdout).toBe('');
    expect(databaseRows(db)).toEqual(before);
  });

  it('refuses, with exit 2 APPROVAL_MISMATCH and nothing written, an answer about another call', async () => {
    await recordSupervised('CLM-91077', '--run-id', 'a0091077');
    const call = await waitingCall();
    const other = call.replace(/^./, (first) => (first === '0' ? '1' : '0'));
    const before = databaseRows(db);
    const result = await approve('a0091077', '--call', other, '--by', 'dana');
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^forkpoint: APPROVAL_MISMATCH: run a0091077 waits for approval of issue_payment#0 \\(step 10\\), request ${call}; the answer is about request ${other}, another call`,
      ),
    );
    expect(databaseRows(db)).toEqual(before);
    // The right call is still waiting for its answer.
    expect((await approve('a0091077', '--call', call, '--by', 'dana')).exit).toBe(0);
  });

  it("with --reject --reason: the payment is never made, and the run refers the claim in the reviewer's words", async () => {
    await recordSupervised('CLM-91077', '--run-id', 'a0091077');
    const result = await approve('a0091077', '--reject', '--reason', 'call the holder first', '--by', 'dana', '--json');
    expect(result.exit).toBe(0);
    const run = parsed(result.stdout);
    expect(callsOf(run).slice(9)).toEqual(['approval#0', 'model#5']);
    expect(run.steps[9]?.response).toMatchObject({ output: { approved: false, by: 'dana' }, isError: true });
    expect(run).toMatchObject({
      status: 'completed',
      outcome: {
        decision: 'refer',
        payout: null,
        reason: 'The payment of EUR 1903 was rejected by dana: call the holder first',
      },
    });
  });

  it('refuses a run that waits for nothing: one paid below the limit', async () => {
    await recordSupervised('CLM-91002', '--run-id', 'a0091002');
    const result = await approve('a0091002', '--by', 'dana');
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(/^forkpoint: APPROVAL_NOT_PENDING: run a0091002 waits for no approval: it completed/);
  });
});

describe('forkpoint fork --approval rejected --reason', () => {
  it('answers an approved payment otherwise: the branch refers and pays nothing, parting at the answer', async () => {
    await recordSupervised('CLM-91077', '--run-id', 'a0091077');
    await approve('a0091077', '--by', 'dana');
    const fork = await cli([
      'fork',
      'a0091077',
      '--at-step',
      '10',
      '--approval',
      'rejected',
      '--reason',
      'the bank details changed last week',
      '--run-id',
      'f0091077',
      '--json',
      '--db',
      db,
    ]);
    expect(fork.exit).toBe(0);
    const branch = parsed(fork.stdout);
    expect(branch).toMatchObject({ mode: 'fork', status: 'completed', outcome: { decision: 'refer', payout: null } });
    expect(callsOf(branch).slice(9)).toEqual(['approval#0', 'model#5']);
    expect(branch.steps[9]).toMatchObject({
      provenance: 'override',
      response: { output: { approved: false, by: 'dana', note: 'the bank details changed last week' } },
    });
    const compare = await cli(['compare', 'a0091077', 'f0091077', '--db', db]);
    expect(compare.stdout).toContain(
      "first divergence: step 10, approval#0: approved -> rejected (a person's answer about issue_payment, not a tool's output)",
    );
    expect(compare.stdout).toMatch(/^a: completed: approve, payout 1903: .* Paid as PAY-[0-9a-f]{8}\.$/m);
    expect(compare.stdout).toMatch(
      /^b: completed: refer: The payment of EUR 1903 was rejected by dana: the bank details/m,
    );
  });

  it('never carries an answer over to other arguments: a fork whose model asks for 1990 waits for its own', async () => {
    await recordSupervised('CLM-91077', '--run-id', 'a0091077');
    const approvedCall = await waitingCall();
    await approve('a0091077', '--call', approvedCall, '--by', 'dana');
    const fork = await cli([
      'fork',
      'a0091077',
      '--at-step',
      '9',
      '--override',
      '{"kind":"model-patch","operations":[{"op":"replace","path":"/content/2/input/amount","value":1990}]}',
      '--run-id',
      'f0091078',
      '--db',
      db,
    ]);
    expect(fork.exit).toBe(0);
    expect(fork.stdout).toContain(
      "awaiting-approval: stopped at rest after step 9, before issue_payment#0, which needs a person's approval",
    );
    const waits =
      /^ {2}the call: issue_payment#0 \{"amount":1990,"claim_id":"CLM-91077","currency":"EUR"\} \(step 10\), request ([0-9a-f]{16})$/m.exec(
        fork.stdout,
      );
    expect(waits?.[1]).toMatch(/^[0-9a-f]{16}$/);
    expect(waits?.[1]).not.toBe(approvedCall);
    const mismatch = await approve('f0091078', '--call', approvedCall, '--by', 'dana');
    expect(mismatch.exit).toBe(2);
    expect(mismatch.stderr).toMatch(/^forkpoint: APPROVAL_MISMATCH: /);
  });
});
