import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { build, worldAt } from './incident.js';

/** The compiled CLI, run as users run it (`npm test` builds it first). */
export const BIN = join(import.meta.dirname, '../../bin/forkpoint.js');

/** The demo's incident. */
export const INCIDENT_ID = '9b40c1d5';

/** Runs `node bin/forkpoint.js ARGS` to its end and returns what it printed and how it exited. */
export function runBin(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Tells the demo's story into a new database at `db` (`npm start`, as a user
 * runs it) and returns the id of the incident's fork at step 4, read from
 * `forkpoint tree 9b40c1d5 --json`.
 */
export function buildDemo(db: string): { forkId: string } {
  const demo = runBin(['demo', '--db', db]);
  expect(demo.status, demo.stderr).toBe(0);
  const tree = runBin(['tree', INCIDENT_ID, '--json', '--db', db]);
  expect(tree.status, tree.stderr).toBe(0);
  const document = JSON.parse(tree.stdout) as {
    tree: { children: { relation: string; run: { runId: string; parent: { atStep: number } | null } }[] };
  };
  const fork = document.tree.children.find((child) => child.relation === 'fork' && child.run.parent?.atStep === 4);
  if (fork === undefined) throw new Error('the demo made no fork of the incident at step 4');
  return { forkId: fork.run.runId };
}

/**
 * Records the incident into the SQLite file `db` through the library, kept
 * without expiry (the synthetic tier): a small store with one run of 9 steps.
 */
export async function writeIncident(db: string): Promise<void> {
  const store = sqliteStore({ path: db });
  try {
    await createEngine({ store }).record({
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      input: { claimId: 'CLM-91077' },
      runId: INCIDENT_ID,
      scenario: 'scenarios/claims-triage',
      tier: 'synthetic',
    });
  } finally {
    await store.close();
  }
}
