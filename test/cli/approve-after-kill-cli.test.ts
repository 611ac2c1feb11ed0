import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';
import { committedSteps } from '../support/committed-steps.js';
import { databaseRows } from '../support/database-rows.js';
import { forkpoint } from '../support/forkpoint-process.js';

// Every process here is real and every kill is SIGKILL: the run must come through with nothing but its committed
// steps. The recorder runs the compiled code, as users run it (`npm test` builds it first). Each test is given a
// minute: it starts up to six Node processes one after another.
const BIN = join(import.meta.dirname, '../../bin/forkpoint.js');
const dist = (path: string): string => pathToFileURL(join(import.meta.dirname, '../../dist', path)).href;

// CLM-91077 on 2026-03-09 with the supervised build, seed pinned: a payout of 1903 waits for approval at step 10.
const SUPERVISED = [
  'record',
  'scenarios/claims-triage',
  '--build',
  'supervised',
  '--claim',
  'CLM-91077',
  '--at',
  '2026-03-09',
  '--seed',
  '20260309',
];

// The same recording through the library, in a process of its own that can kill itself right after the commit
// of one step (argv: db, run id, the step; 0: never): between the step that asked for the approval and the write
// that says the run waits, a point no CLI run stops at long enough to be killed there by another process. Without
// a step to die after, it stays up once the run is at rest, as a long-lived recorder would.
const RECORDER = `
const { createEngine, sqliteStore } = await import(${JSON.stringify(dist('src/index.js'))});
const claims = await import(${JSON.stringify(dist('scenarios/claims-triage/index.js'))});
const [db, runId, dieAfter] = process.argv.slice(1);
const engine = createEngine({ store: sqliteStore({ path: db }) });
await engine.record({
  agent: claims.supervised,
  world: claims.default.openWorld({ at: '2026-03-09', seed: 20260309, latencyMs: 0 }),
  input: { claimId: 'CLM-91077' },
  runId,
  scenario: 'scenarios/claims-triage',
  onStep: (step) => {
    if (step.step === Number(dieAfter)) process.kill(process.pid, 'SIGKILL');
  },
});
process.stdout.write('at rest\\n');
setInterval(() => {}, 60_000);
`;

interface JsonStep {
  readonly step: number;
  readonly kind: string;
  readonly index: number;
  readonly attempt: number;
  readonly provenance: string;
  readonly requestHash: string;
  readonly response: Record<string, unknown>;
}
interface JsonRun {
  readonly runId: string;
  readonly status: string;
  readonly outcome: Record<string, unknown> | null;
  readonly steps: JsonStep[];
}

// What a step observed, an answer's time aside (each answer is given at its own moment).
const observed = (run: JsonRun) =>
  run.steps.map((step) => {
    const call = `${step.kind}#${step.index}`;
    const { output, ...response } = step.response;
    if (step.kind !== 'approval' || typeof output !== 'object' || output === null)
      return { step: step.step, call, hash: step.requestHash, response: step.response };
    const { at: _at, ...answer } = output as Record<string, unknown>;
    return { step: step.step, call, hash: step.requestHash, response: { ...response, output: answer } };
  });

let reference: JsonRun;
const referenceFolder = tempFolder('forkpoint-approve-kill-reference-');
beforeAll(async () => {
  // The run no process died in: recorded, then approved.
  const db = join(referenceFolder.path, 'reference.db');
  await cli([...SUPERVISED, '--run-id', 'a0091077', '--db', db]);
  reference = JSON.parse((await cli(['approve', 'a0091077', '--by', 'dana', '--json', '--db', db])).stdout) as JsonRun;
}, 30_000);
afterAll(() => {
  referenceFolder.cleanup();
});

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(() => {
  folder = tempFolder('forkpoint-approve-kill-');
  db = join(folder.path, 'forkpoint.db');
});
afterEach(() => {
  folder.cleanup();
});

/** Starts the library recorder; resolves with the signal it ended by, or once it says its run is at rest. */
function startRecorder(runId: string, dieAfter: number) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', RECORDER, db, runId, String(dieAfter)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => {
      resolve(signal);
    }),
  );
  const lines = createInterface({ input: child.stdout });
  // Asked for only where the recorder is meant to live on: where it is meant to die, its ending is no failure.
  const atRest = () =>
    new Promise<void>((resolve, reject) => {
      lines.once('line', () => {
        resolve();
      });
      void exited.then(() => {
        reject(new Error(`the recorder ended before its run came to rest: ${stderr}`));
      });
    });
  return { child, exited, atRest };
}

/** The run's row as the store wrote it, read directly: its stored status, its owner's process, its last step. */
function storedRow(runId: string): { status: string; ownerPid: number | null; steps: number } {
  const reader = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const row = reader.prepare('SELECT run_key, status, owner_pid FROM runs WHERE run_id = ?').get(runId) as {
      run_key: number;
      status: string;
      owner_pid: number | null;
    };
    const steps = reader.prepare('SELECT MAX(step) FROM steps WHERE run_key = ?').pluck().get(row.run_key) as number;
    return { status: row.status, ownerPid: row.owner_pid, steps };
  } finally {
    reader.close();
  }
}

const shown = async (runId: string): Promise<JsonRun> =>
  JSON.parse((await forkpoint(['show', runId, '--json', '--db', db])).stdout) as JsonRun;

describe('an approval survives kill -9', () => {
  it('of the recorder right after it committed the step that asked, before it said the run waits', async () => {
    const recorder = startRecorder('dead0091', 9);
    expect(await recorder.exited).toBe('SIGKILL');
    // Killed between the two writes: step 9 is there, the run still says running, its owner is dead.
    expect(storedRow('dead0091')).toMatchObject({ status: 'running', steps: 9, ownerPid: recorder.child.pid });
    expect((await shown('dead0091')).status).toBe('interrupted');

    const approved = await forkpoint(['approve', 'dead0091', '--by', 'dana', '--json', '--db', db]);
    expect(approved.stderr).toBe('');
    expect(approved.exit).toBe(0);
    const run = JSON.parse(approved.stdout) as JsonRun;
    expect(run).toMatchObject({ runId: 'dead0091', status: 'completed', outcome: reference.outcome });
    expect(run.steps.map((step) => step.attempt)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2]);
    expect(observed(run)).toEqual(observed(reference));
    expect(observed(await shown('dead0091'))).toEqual(observed(reference));
  }, 60_000);

  it('of a recorder that stays up while its run waits: the run at rest holds no owner, and stays waiting', async () => {
    const recorder = startRecorder('a11e0091', 0);
    await recorder.atRest();
    expect(storedRow('a11e0091')).toEqual({ status: 'awaiting-approval', ownerPid: null, steps: 9 });
    recorder.child.kill('SIGKILL');
    expect(await recorder.exited).toBe('SIGKILL');
    expect((await shown('a11e0091')).status).toBe('awaiting-approval');

    const approved = await forkpoint(['approve', 'a11e0091', '--by', 'dana', '--json', '--db', db]);
    expect(approved.exit).toBe(0);
    const run = JSON.parse(approved.stdout) as JsonRun;
    expect(run).toMatchObject({ status: 'completed', outcome: reference.outcome });
    expect(observed(run)).toEqual(observed(reference));
  }, 60_000);

  it('of the recorder mid-run, before it reached the payment: resume brings it to the approval, approve ends it', async () => {
    const child = spawn(
      process.execPath,
      [BIN, ...SUPERVISED, '--run-id', 'dead0092', '--latency', '150', '--db', db],
      {
        stdio: 'ignore',
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => {
        resolve(signal);
      }),
    );
    const committed = await committedSteps(db, 'dead0092', 3);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(committed).toBeGreaterThanOrEqual(3);
    const kept = (await shown('dead0092')).steps.length;
    expect(kept).toBeLessThan(9);

    // Its last checkpoint waits for the model, not for a person: nothing to answer yet, and nothing written.
    const before = databaseRows(db);
    const early = await forkpoint(['approve', 'dead0092', '--by', 'dana', '--db', db]);
    expect(early.exit).toBe(2);
    expect(early.stderr).toMatch(
      /^forkpoint: APPROVAL_NOT_PENDING: run dead0092 waits for no approval: its last checkpoint waits for no approval/,
    );
    expect(databaseRows(db)).toEqual(before);

    const resumed = await forkpoint(['resume', 'dead0092', '--side-effects', 'estimate_repair=live', '--db', db]);
    expect(resumed.exit).toBe(0);
    expect(resumed.stdout).toMatch(
      /^ {2}the call: issue_payment#0 \{"amount":1903,"claim_id":"CLM-91077","currency":"EUR"\} \(step 10\), request [0-9a-f]{16}$/m,
    );
    const approved = await forkpoint(['approve', 'dead0092', '--by', 'dana', '--json', '--db', db]);
    expect(approved.exit).toBe(0);
    const run = JSON.parse(approved.stdout) as JsonRun;
    expect(run).toMatchObject({ status: 'completed', outcome: reference.outcome });
    expect(run.steps.map((step) => step.attempt)).toEqual(
      Array.from({ length: 12 }, (_, i) => (i < kept ? 1 : i < 9 ? 2 : 3)),
    );
    expect(observed(run)).toEqual(observed(reference));
  }, 60_000);
});
