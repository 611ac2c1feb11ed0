import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder('forkpoint-demo-');
});
afterEach(() => {
  folder.cleanup();
});

/** The approval chapter's lines, in order: recorded and waiting, approved, replayed, forked (see demo-approval.test.ts). */
function expectApprovalChapter(stdout: string): void {
  const chapter = stdout.slice(stdout.indexOf('\n9. '));
  expect(chapter).toMatch(/^9\. A person in the loop: the supervised build pays what it approves with issue_payment/m);
  expect(chapter).toMatch(
    /^record · run a0091077 · claims-triage\/supervised .* world 2026-03-09 · seed 20260309\n(.*\n){9} +9 +model#4 +live +[0-9a-f]{16} +asks issue_payment \{"claim_id":"CLM-91077","amount":1903,"currency":"EUR"\}\nawaiting-approval: stopped at rest after step 9, before issue_payment#0/m,
  );
  const pending =
    /^ {2}the call: issue_payment#0 \{"amount":1903,"claim_id":"CLM-91077","currency":"EUR"\} \(step 10\), request ([0-9a-f]{16})$/m.exec(
      chapter,
    );
  expect(pending).not.toBeNull();
  const hash = pending?.[1] ?? '';
  expect(chapter).toContain(`\`forkpoint approve a0091077 --call ${hash} --by dana@claims.example --reason "`);
  expect(chapter).toMatch(/^record · run a0091077 .* resumed at step 10 \(attempt 2, after awaiting-approval, /m);
  expect(chapter).toMatch(
    /^ +10 +2 +approval#0 +✋ human +[0-9a-f]{16} +approved issue_payment#0 \(request [0-9a-f]{8}…\) by dana@claims\.example: "Photos match/m,
  );
  expect(chapter).toMatch(
    new RegExp(`^ +11 +2 +issue_payment#0 +live +${hash} +PAY-[0-9a-f]{8}: EUR 1903 to Marta Lindqvist$`, 'm'),
  );
  expect(chapter).toMatch(/^completed: approve, payout 1903: .* Paid as PAY-[0-9a-f]{8}\.$/m);
  expect(chapter).toMatch(
    /^replay:strict · run [0-9a-f]{12} · claims-triage\/supervised .* over the recorded observations of run a0091077 .*\n {2}12 steps \(recorded\); completed: approve, payout 1903/m,
  );
  expect(chapter).toContain(
    'The answer at step 10 came from the recording (approval#0 recorded): nobody was asked. Live calls: 0.',
  );
  expect(chapter).toMatch(
    /^fork · run ([0-9a-f]{12}) · claims-triage\/supervised .* forked from run a0091077 at step 10 \(approval answered otherwise: approved -> rejected, note .*\n {2}11 steps \(inherited\/override\/live\); completed: refer: The payment of EUR 1903 was rejected by dana@claims\.example/m,
  );
  expect(chapter).toMatch(
    /^compare a0091077 [0-9a-f]{12}: first divergence at step 10 \(approval#0, on the response\); outcome approve -> refer; issue_payment calls in the branch: 0$/m,
  );
}

describe('forkpoint demo (npm start)', () => {
  it('tells the whole story, each run labelled with its mode', async () => {
    const db = join(folder.path, 'demo.db');
    const result = await cli(['demo', '--db', db]);
    expect(result.exit).toBe(0);
    const headlines = result.stdout
      .split('\n')
      .filter((line) => /^[a-z:]+ · run [0-9a-f]{8}/.test(line))
      .map((line) => line.split(' · ')[0]);
    expect(headlines).toEqual([
      'record',
      'reexecution',
      'reexecution',
      'drift',
      'replay:strict',
      'replay:strict',
      'fork',
      'fork',
      'replay:strict',
      'replay:structural',
      'replay:structural',
      'similar',
      // The approval chapter: recorded and waiting, approved, replayed strictly, forked with a rejection.
      'record',
      'record',
      'replay:strict',
      'fork',
    ]);
    // The classes chapter: the incident's class among two weeks of every claim, and the period's one-offs.
    expect(result.stdout).toMatch(
      /^ {2}12 runs of 252 recorded since 2026-03-01 \(4\.8%\)\n {2}by build: baseline 12; by outcome: failed 12; days 2026-03-01\.\.2026-03-04 \(4 days\)$/m,
    );
    expect(result.stdout).toContain('fetch_claim → ocr_document [ocr-confidence<0.5] → estimate_repair → fetch_policy');
    expect(result.stdout).toMatch(/4 failures of the period are one-offs \(.*MODEL_REFUSED at model.*\)/);
    expect(result.stdout).toMatch(/^record · run 9b40c1d5 .*\n(.*\n){10}failed at step 9: VALIDATION_FAILED/m);
    expect(result.stdout).toMatch(
      /a second run of run 9b40c1d5's input against the world of 2026-03-09, not a replay · claims-triage\/patched[^\n]*side effects refuse,estimate_repair=simulate\n {2}9 steps \(live\/simulated\); completed: approve/,
    );
    // The fork shows the firewall: stopped where it would have registered a second estimate, then resumed with its simulator.
    expect(result.stdout).toMatch(
      /^ +5 +model#2 +live .*\nfailed at step 6: SIDE_EFFECT_BLOCKED: estimate_repair#0 \(step 6\) was not called/m,
    );
    expect(result.stdout).toMatch(
      /^fork · run ([0-9a-f]{12}) .* resumed at step 6 \(attempt 2, after SIDE_EFFECT_BLOCKED/m,
    );
    expect(result.stdout).toMatch(/^ +6 +2 +estimate_repair#0 +simulated /m);
    expect(result.stdout).toMatch(
      /claims-triage\/patched[^\n]*over the recorded observations[^\n]*\n {2}4 steps \(recorded\); completed: refer/,
    );
    expect(result.stdout).toMatch(
      /claims-triage\/baseline[^\n]*over the recorded observations[^\n]*\n {2}9 steps \(recorded\); failed at step 9: VALIDATION_FAILED/,
    );
    expect(result.stdout).toMatch(
      /first divergence at step 4 \(ocr_document#0, on the response\); outcome failed -> approve/,
    );
    expect(result.stdout).toMatch(/divergence: model#0 \(step 1\): .*; changed: system/);
    expect(result.stdout).toMatch(
      /ocr_document#0 \(step 4\): .*fields\.damage_area_cm2\.value 205 -> 2050.*\n.*\n.*\n1 changed, 2 unchanged, 1 skipped/,
    );
    expect(result.stdout).toMatch(/FLAGGED system\[\d+\.\.\d+\]: "[^"]+" vs "[^"]+" \(ISO 8601 timestamp\)/);
    const ratio = Number(
      /tiers: full [\d.]+ KB · structural [\d.]+ KB \(1\/([\d.]+) of full\)/.exec(result.stdout)?.[1],
    );
    expect(ratio).toBeGreaterThanOrEqual(10);
    expect(result.stdout).toMatch(/gc --now 2026-03-07T18:42:00.000Z: removed the full tier of 9b40c1d5 .*, 9 steps/);
    expect(result.stdout).toMatch(
      /replay 9b40c1d5: CASSETTE_EXPIRED: .*expired at 2026-03-07T17:42:00.000Z.*the structural tier remains until 2026-06-02T17:42:00.000Z/,
    );
    expect(result.stdout).toMatch(
      /^replay:structural · run [0-9a-f]{12} · claims-triage\/baseline[^\n]*\n {2}9 steps \(recorded\); completed: the trajectory held/m,
    );
    expect(result.stdout).toMatch(
      /^replay:structural · run [0-9a-f]{12} · claims-triage\/timestamped[^\n]*\n {2}0 steps; diverged at step 1/m,
    );
    expect(result.stdout).toMatch(/--build baseline: (\d+)\/\1 pass \(100\.0%\)/);
    expect(result.stdout).toMatch(/The 0\.55 threshold refers [1-9]\d* legitimate faint forms/);
    expectApprovalChapter(result.stdout);
  });

  it('runs again on the same database, keeping the incident it recorded', async () => {
    const db = join(folder.path, 'demo.db');
    await cli(['demo', '--db', db]);
    const again = await cli(['demo', '--db', db]);
    expect(again.exit).toBe(0);
    expect(again.stderr).toMatch(/run 9b40c1d5 is already recorded/);
    // The approved run is kept and shown, not answered twice; the replay and the fork are made again.
    expect(again.stderr).toMatch(/run a0091077 is already recorded and answered in .*; showing it/);
    const chapter = again.stdout.slice(again.stdout.indexOf('\n9. '));
    expect(chapter).not.toContain('awaiting-approval: stopped at rest');
    expect(chapter).toMatch(/^record · run a0091077 .* resumed at step 10 \(attempt 2, after awaiting-approval, /m);
    expect(chapter).toMatch(/Live calls: 0\./);
    expect(chapter).toMatch(/outcome approve -> refer; issue_payment calls in the branch: 0/);
  });
});
