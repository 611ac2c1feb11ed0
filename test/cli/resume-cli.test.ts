import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/json/index.js';
import { observationOf } from '../../src/analysis/index.js';
import { cli, tempFolder } from '../support/cli-harness.js';
import { committedSteps } from '../support/committed-steps.js';

// The compiled CLI, as users run it (`npm test` builds it first): the recorder is a real process, killed for real.
const BIN = join(import.meta.dirname, '../../bin/forkpoint.js');
const RECORD = [
  'record',
  'scenarios/claims-triage',
  '--claim',
  'CLM-91077',
  '--at',
  '2026-03-04',
  '--seed',
  '20260304',
];

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(() => {
  folder = tempFolder('forkpoint-resume-cli-');
  db = join(folder.path, 'forkpoint.db');
});
afterEach(() => {
  folder.cleanup();
});

interface JsonStep {
  kind: string;
  index: number;
  requestHash: string;
  response: JsonValue;
  attempt: number;
  provenance: string;
}
const forkpoint = (args: readonly string[]) =>
  spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8' });
const observed = (steps: JsonStep[]) =>
  steps.map((step) => ({
    call: `${step.kind}#${step.index}`,
    hash: step.requestHash,
    seen: observationOf(step.response),
  }));

async function killMidRun(runId: string): Promise<number> {
  const child = spawn(process.execPath, [BIN, ...RECORD, '--run-id', runId, '--latency', '150', '--db', db], {
    stdio: 'ignore',
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => {
      resolve(signal);
    }),
  );
  const committed = await committedSteps(db, runId, 3);
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return committed;
}

describe('forkpoint resume', () => {
  it('continues a recording killed with SIGKILL to the outcome an uninterrupted run with the same seed reaches', async () => {
    const committed = await killMidRun('dead00aa');
    expect(committed).toBeGreaterThanOrEqual(3);
    const shown = JSON.parse(forkpoint(['show', 'dead00aa', '--json']).stdout) as { status: string; steps: JsonStep[] };
    expect(shown.status).toBe('interrupted');
    const kept = shown.steps.length;
    expect(kept).toBeLessThan(9);

    const resumed = forkpoint(['resume', 'dead00aa', '--side-effects', 'estimate_repair=live', '--json']);
    expect(resumed.stderr).toBe('');
    expect(resumed.status).toBe(1);
    const body = JSON.parse(resumed.stdout) as {
      mode: string;
      runId: string;
      status: string;
      error: unknown;
      steps: JsonStep[];
      resumed: { fromStep: number; after: string };
    };
    expect(body).toMatchObject({
      mode: 'record',
      runId: 'dead00aa',
      status: 'failed',
      error: { code: 'VALIDATION_FAILED', step: 9 },
      resumed: { fromStep: kept + 1, after: 'interrupted' },
    });
    expect(body.steps.map((step) => step.attempt)).toEqual(Array.from({ length: 9 }, (_, i) => (i < kept ? 1 : 2)));

    const whole = forkpoint([...RECORD, '--run-id', 'a11e00aa', '--json']);
    const uninterrupted = JSON.parse(whole.stdout) as { error: unknown; steps: JsonStep[] };
    expect(body.error).toEqual(uninterrupted.error);
    expect(observed(body.steps)).toEqual(observed(uninterrupted.steps));

    const human = forkpoint(['show', 'dead00aa']);
    expect(human.stdout.split('\n')[0]).toMatch(
      new RegExp(`^record · run dead00aa · .* · resumed at step ${kept + 1} \\(attempt 2, after interrupted, `),
    );
    expect(human.stdout).toMatch(/^ +step +attempt +call /m);
    const check = new Database(db, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  });

  it("refuses a run that completed or failed in the agent's own code, with one line and exit 2, and changes nothing", async () => {
    await cli([...RECORD, '--run-id', '9b40c1d5', '--db', db]);
    const before = (await cli(['show', '9b40c1d5', '--json', '--db', db])).stdout;
    const refused = await cli(['resume', '9b40c1d5', '--db', db]);
    expect(refused.exit).toBe(2);
    expect(refused.stderr).toMatch(
      /^forkpoint: RESUME_REFUSED: run 9b40c1d5 cannot be resumed: it failed in the agent's own code \(VALIDATION_FAILED at step 9\)[^\n]*\n$/,
    );
    expect((await cli(['show', '9b40c1d5', '--json', '--db', db])).stdout).toBe(before);
    const missing = await cli(['resume', '0000dead', '--db', join(folder.path, 'none.db')]);
    expect(missing.exit).toBe(2);
    expect(missing.stderr).toMatch(/^forkpoint: RUN_NOT_FOUND: /);
    expect(
      (await cli(['resume', '9b40c1d5', '--side-effects', 'estimate_repair=sometimes', '--db', db])).stderr,
    ).toMatch(/^forkpoint: USAGE: --side-effects estimate_repair must be one of refuse, simulate, live/);
  });
});
