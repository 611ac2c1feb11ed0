import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { restoreCheckpoint } from '../../src/checkpoint/index.js';
import { createEngine } from '../../src/engine/index.js';
import type { Store } from '../../src/store/index.js';
import { postgresStore } from '../../src/store/index.js';
import {
  describePostgres,
  dropFreshSchemasAfterAll,
  freshSchemaName,
  postgresTestUrl,
  schemaUrl,
} from '../support/postgres.js';

// These run the compiled CLI as a team's recorders do (`npm test` builds it first), all writing into one
// Postgres schema.
const BIN = join(import.meta.dirname, '../../bin/forkpoint.js');
const CLAIMS = ['CLM-91002', 'CLM-91013', 'CLM-91024', 'CLM-91035', 'CLM-91046', 'CLM-91058', 'CLM-91069', 'CLM-91080'];
const RECORDERS = 16;
const ROUNDS = 3;

dropFreshSchemasAfterAll();

/** A store URL of a schema of its own on the test server. */
function freshStoreUrl(): { url: string; schema: string } {
  const schema = freshSchemaName();
  return { url: schemaUrl(schema), schema };
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** Starts `forkpoint record` of one claim into `url`, with a chosen run id and seed. */
function record(url: string, runId: string, claim: string, extra: readonly string[] = []) {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'record',
      'scenarios/claims-triage',
      '--claim',
      claim,
      '--at',
      '2026-03-04',
      '--seed',
      '7',
      '--run-id',
      runId,
      '--db',
      url,
      ...extra,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      resolve({ code, signal, stderr });
    }),
  );
  return { child, exited };
}

const runIdOf = (round: number, recorder: number): string =>
  `${round.toString(16).padStart(4, '0')}${recorder.toString(16).padStart(8, '0')}`;

/** How the store holds a run: its status, its step count, and whether its rows are 0..count without a gap. */
async function heldRun(store: Store, runId: string) {
  const run = await store.getRun(runId);
  const steps = (await store.readSteps(runId)).map((row) => row.step);
  return {
    status: run?.status,
    stepCount: run?.stepCount,
    contiguous: steps.every((step, i) => step === i),
    rows: steps.length,
  };
}

describePostgres('recorder processes sharing one PostgreSQL database', () => {
  it(`${RECORDERS} processes recording at once, ${ROUNDS} rounds: every run and step is there, and none failed to write`, async () => {
    const { url, schema } = freshStoreUrl();
    // A reference: each claim recorded alone, to know how many steps its run has.
    const expected = new Map<string, number>();
    const alone = freshStoreUrl();
    const reference = postgresStore({ connectionString: postgresTestUrl() ?? '', schema: alone.schema });
    try {
      for (const [i, claim] of CLAIMS.entries()) {
        const exit = await record(alone.url, runIdOf(0xffff, i), claim).exited;
        expect(exit.stderr).not.toMatch(/STORE_|INTERNAL|LEASE_LOST/);
        expected.set(claim, (await reference.getRun(runIdOf(0xffff, i)))?.stepCount ?? -1);
      }
    } finally {
      await reference.close();
    }
    // The first round starts on an empty schema: 16 processes migrate it at once, and one of them does.
    for (let round = 0; round < ROUNDS; round++) {
      const exits = await Promise.all(
        Array.from(
          { length: RECORDERS },
          (_, i) => record(url, runIdOf(round, i), CLAIMS[i % CLAIMS.length] ?? '').exited,
        ),
      );
      for (const exit of exits) {
        expect(exit.signal).toBeNull();
        // A claim's run completes (0) or fails in the agent's own code (1); a store error would be 2 or 3.
        expect([0, 1]).toContain(exit.code);
        expect(exit.stderr).not.toMatch(/STORE_|INTERNAL|LEASE_LOST|deadlock/i);
      }
    }
    const store = postgresStore({ connectionString: postgresTestUrl() ?? '', schema });
    try {
      expect((await store.listRuns()).length).toBe(RECORDERS * ROUNDS);
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < RECORDERS; i++) {
          const held = await heldRun(store, runIdOf(round, i));
          const steps = expected.get(CLAIMS[i % CLAIMS.length] ?? '');
          expect(held).toEqual({ status: held.status, stepCount: steps, contiguous: true, rows: (steps ?? 0) + 1 });
          expect(['completed', 'failed']).toContain(held.status);
        }
      }
    } finally {
      await store.close();
    }
  }, 240_000);

  it('recorders killed with SIGKILL mid-run leave no half-written step: every committed step restores, and the runs read interrupted and resume', async () => {
    const { url, schema } = freshStoreUrl();
    const store = postgresStore({ connectionString: postgresTestUrl() ?? '', schema });
    try {
      // The schema exists before the recorders start, so that the first poll finds its tables.
      await store.listRuns();
      const killed = Array.from({ length: 4 }, (_, i) => ({
        runId: runIdOf(0xdead, i),
        ...record(url, runIdOf(0xdead, i), CLAIMS[i] ?? '', ['--latency', '120']),
      }));
      // Each is killed once it has committed a few steps, at a moment of its own.
      await Promise.all(
        killed.map(async ({ runId, child }, i) => {
          for (let attempt = 0; attempt < 400; attempt++) {
            if (((await store.getRun(runId))?.stepCount ?? 0) >= 2 + i) break;
            await sleep(20);
          }
          child.kill('SIGKILL');
        }),
      );
      for (const { exited } of killed) expect((await exited).signal).toBe('SIGKILL');
      const engine = createEngine({ store });
      for (const { runId } of killed) {
        const held = await heldRun(store, runId);
        expect(held.contiguous).toBe(true);
        expect(held.rows).toBeGreaterThanOrEqual(3);
        const view = await engine.getRun(runId);
        expect(view.status).toBe('interrupted');
        for (let step = 0; step < held.rows; step++)
          expect((await restoreCheckpoint(store, runId, step)).context.step).toBe(step);
      }
      // Resumed, each run ends as one recorded without a kill ends.
      for (const { runId } of killed) {
        const resumed = await new Promise<Exit>((resolve) => {
          const child = spawn(process.execPath, [BIN, 'resume', runId, '--db', url], {
            stdio: ['ignore', 'ignore', 'pipe'],
          });
          let stderr = '';
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          child.once('exit', (code, signal) => {
            resolve({ code, signal, stderr });
          });
        });
        expect([0, 1]).toContain(resumed.code);
        const held = await heldRun(store, runId);
        expect(held.contiguous).toBe(true);
        expect(['completed', 'failed']).toContain(held.status);
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});
