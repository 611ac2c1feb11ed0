import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunComparison } from '../../src/analysis/index.js';
import type { RunView } from '../../src/engine/index.js';
import type { ApprovalRuns } from '../support/approval-runs.js';
import {
  APPROVED,
  ASKS_MORE,
  NOTE,
  REASON,
  REJECTED,
  REVIEWER,
  WAITING,
  writeApprovalRuns,
} from '../support/approval-runs.js';
import { cli, tempFolder } from '../support/cli-harness.js';

// Approvals as every command that reads a run shows them: a person's answer, and a run that waits for one.
const folder = tempFolder('forkpoint-approvals-cli-');
const db = join(folder.path, 'forkpoint.db');
let runs: ApprovalRuns;
beforeAll(async () => {
  runs = await writeApprovalRuns(db);
}, 60_000);
afterAll(() => {
  folder.cleanup();
});

const run = (args: readonly string[]) => cli([...args, '--db', db]);
const text = async (args: readonly string[]): Promise<string> => {
  const result = await run(args);
  expect(result.exit, result.stderr).toBe(0);
  return result.stdout;
};
const json = async <T>(args: readonly string[]): Promise<T> => JSON.parse(await text([...args, '--json'])) as T;
const lineOf = (output: string, start: RegExp): string => output.split('\n').find((line) => start.test(line)) ?? '';

describe('a run waiting for approval', () => {
  it('show ends with the call it waits for and the exact commands that answer it', async () => {
    const shown = await text(['show', WAITING]);
    expect(shown).toContain(
      "\nawaiting-approval: stopped at rest after step 5, before refund#0, which needs a person's approval\n" +
        `  the call: refund#0 {"amount":120,"order_id":"ORD-1"} (step 6), request ${runs.refundHash}\n` +
        `  approve it: forkpoint approve ${WAITING} --call ${runs.refundHash}\n` +
        `  reject it:  forkpoint approve ${WAITING} --call ${runs.refundHash} --reject --reason TEXT\n`,
    );
  });

  it('show --json carries the pending question, bound to the call by its request hash', async () => {
    const shown = await json<RunView>(['show', WAITING]);
    expect(shown.pendingApproval).toEqual({
      step: 6,
      index: 0,
      tool: 'refund',
      input: { order_id: 'ORD-1', amount: 120 },
      callIndex: 0,
      requestHash: runs.refundHash,
    });
    // Answered: the question is gone from the run that had it.
    expect((await json<RunView>(['show', APPROVED])).pendingApproval).toBeNull();
  });

  it('runs --status awaiting-approval lists the waiting runs only, a waiting fork among them', async () => {
    const page = await json<{ runs: { runId: string; status: string }[] }>(['runs', '--status', 'awaiting-approval']);
    expect(page.runs.map((each) => each.runId).sort()).toEqual([WAITING, ASKS_MORE].sort());
    const listed = await text(['runs', '--status', 'awaiting-approval']);
    expect(lineOf(listed, new RegExp(`^${WAITING}`))).toMatch(/ awaiting-approval$/);
    expect(listed).not.toMatch(new RegExp(`^${APPROVED}`, 'm'));
  });

  it('once its full tier expired, shows the question no longer, and says so', async () => {
    const later = ['--now', '2031-01-01T00:00:00.000Z'];
    const shown = await text(['show', WAITING, ...later]);
    expect(shown).toContain(
      "\nawaiting-approval: stopped at rest, before a call, which needs a person's approval\n  the call is not shown: the run's full tier expired at ",
    );
    expect(shown).toContain('and the question with it; it can no longer be answered');
    expect(shown).not.toContain('forkpoint approve');
    expect(await json<RunView>(['show', WAITING, ...later])).toMatchObject({
      status: 'awaiting-approval',
      pendingApproval: null,
      retention: { expired: true },
    });
  });

  it('has no signature yet, and similar says why', async () => {
    const result = await run(['similar', WAITING]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toContain(
      `SIGNATURE_MISSING: run ${WAITING} has not ended: it waits for a person's approval`,
    );
  });
});

describe('a run a person approved', () => {
  it("show reads the answer as a person's, bound to the call it let through, not as a tool's output", async () => {
    const shown = await text(['show', APPROVED]);
    const answer = lineOf(shown, /^ +6 /);
    expect(answer).toMatch(
      new RegExp(
        `^ +6 +2 +approval#0 +✋ human +[0-9a-f]{16} +approved refund#0 \\(request ${runs.refundHash.slice(0, 8)}…\\) by ${REVIEWER}: "${NOTE}"$`,
      ),
    );
    expect(lineOf(shown, /^ +7 /)).toMatch(/refund#0 +live +/);
    expect(shown).toContain('\ncompleted: ');
    expect(shown).not.toContain('the call:');
  });

  it('similar and classes word the trajectory with the approval of the refund, not a tool named approval', async () => {
    expect(await text(['similar', APPROVED])).toContain(
      'class: lookup_order → lookup_customer → approval(refund) ✓ → refund → completed',
    );
    expect(await text(['similar', REJECTED])).toContain(
      'class: lookup_order → lookup_customer → approval(refund) ✗ → completed',
    );
    expect(await text(['classes'])).toContain('lookup_order → lookup_customer → approval(refund) ✓ → refund');
  });
});

describe('a fork that answered otherwise', () => {
  it("show reads the fork's answer as the override it is", async () => {
    const shown = await text(['show', REJECTED]);
    expect(lineOf(shown, /^ +6 /)).toMatch(
      new RegExp(
        `approval#0 +override +[0-9a-f]{16} +rejected refund#0 \\(request [0-9a-f]{8}…\\) by ${REVIEWER}: "${REASON}"$`,
      ),
    );
    expect(shown.split('\n')[0]).toContain(
      `forked from run ${APPROVED} at step 6 (approval answered otherwise: approved -> rejected, note "${NOTE}" -> "${REASON}")`,
    );
  });

  it('compare names the divergence as a person who answered otherwise', async () => {
    const compared = await text(['compare', APPROVED, REJECTED]);
    expect(compared).toContain(
      "\nfirst divergence: step 6, approval#0: approved -> rejected (a person's answer about refund, not a tool's output)\n",
    );
    const row = lineOf(compared, /^ +6≠ /);
    // Each side's column is cut at 46 characters: the decision and the call come first.
    expect(row).toContain('approval#0 ✋ human approved refund by dana@');
    expect(row).toContain('approval#0 override rejected refund by dana@');

    const document = await json<RunComparison>(['compare', APPROVED, REJECTED]);
    expect(document.firstDivergence).toEqual({
      step: 6,
      kind: 'approval',
      index: 0,
      on: 'response',
      approval: { a: 'approved', b: 'rejected' },
    });
    expect(document.steps[5]?.a?.approval).toMatchObject({
      approved: true,
      by: REVIEWER,
      note: NOTE,
      tool: 'refund',
      requestHash: runs.refundHash,
    });
    expect(document.steps[5]?.b?.approval).toMatchObject({ approved: false, note: REASON });
    // No approval where none was asked: the other steps' sides carry no such field.
    expect(document.steps[4]?.a).not.toHaveProperty('approval');
  });

  it('compare of two runs that part elsewhere says nothing of approvals', async () => {
    const document = await json<RunComparison>(['compare', APPROVED, ASKS_MORE]);
    expect(document.firstDivergence).toEqual({ step: 5, kind: 'model', index: 2, on: 'response' });
  });

  it('tree marks the fork that answered otherwise and the fork that waits', async () => {
    const tree = await text(['tree', APPROVED]);
    expect(lineOf(tree, new RegExp(`${REJECTED} fork`))).toContain(
      `fork at step 6 (approval answered otherwise: approved -> rejected, note "${NOTE}" -> "${REASON}"): ${REJECTED} fork supervised`,
    );
    expect(lineOf(tree, new RegExp(`${ASKS_MORE} fork`))).toMatch(
      / · awaiting-approval ✋ waits for a person's answer$/,
    );
    const lineage = await json<{ tree: { children: { run: { runId: string; status: string } }[] } }>([
      'tree',
      APPROVED,
    ]);
    expect(lineage.tree.children.map((child) => child.run.status).sort()).toEqual(['awaiting-approval', 'completed']);
  });

  it('a waiting fork shows the new call it waits for, with its own request hash', async () => {
    const shown = await text(['show', ASKS_MORE]);
    const hash = /the call: refund#0 \{"amount":130,"order_id":"ORD-1"\} \(step 6\), request ([0-9a-f]{16})/.exec(
      shown,
    )?.[1];
    expect(hash).toBeDefined();
    expect(hash).not.toBe(runs.refundHash);
    expect(shown).toContain(`approve it: forkpoint approve ${ASKS_MORE} --call ${hash ?? ''}`);
  });
});

describe('the commands a waiting run prints', () => {
  it('answer it as printed: the reject command, its TEXT filled in, stands as the call result', async () => {
    const own = tempFolder('forkpoint-approvals-answer-');
    try {
      const at = (args: readonly string[]) => cli([...args, '--db', join(own.path, 'forkpoint.db')]);
      const recorded = await at([
        'record',
        'test/fixtures/scenarios/refund-desk',
        '--order',
        'ORD-1',
        '--build',
        'supervised',
        '--at',
        '2026-03-04',
        '--run-id',
        WAITING,
      ]);
      const reject = /reject it: +forkpoint (approve .*) --reason TEXT$/m.exec(recorded.stdout)?.[1];
      expect(reject).toBeDefined();
      const answered = await at([...(reject ?? '').split(' '), '--reason', 'not this order', '--by', REVIEWER]);
      expect(answered.exit, answered.stderr).toBe(0);
      expect(lineOf(answered.stdout, /^ +6 /)).toContain(
        `rejected refund#0 (request ${runs.refundHash.slice(0, 8)}…) by ${REVIEWER}: "not this order"`,
      );
      expect(answered.stdout).toContain('\ncompleted: {"refund_id":null,"refunded":0}');
    } finally {
      own.cleanup();
    }
  });
});
