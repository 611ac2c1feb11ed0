import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { scenarioReference } from '../../src/scenario/index.js';
import { cli, tempFolder } from '../support/cli-harness.js';

const BIN = join(import.meta.dirname, '../../bin/forkpoint.js');
let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder('forkpoint-elsewhere-');
});
afterEach(() => {
  folder.cleanup();
});

const forkpointIn = (cwd: string, args: readonly string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('forkpoint from any folder', () => {
  it('finds the built-in scenario from another folder, stores where to find it again, and makes its default database folder', async () => {
    const recorded = forkpointIn(folder.path, [
      'record',
      'scenarios/claims-triage',
      '--claim',
      'CLM-91002',
      '--at',
      '2026-03-04',
      '--run-id',
      '0a0a0a0a',
      '--json',
    ]);
    expect(recorded.stderr).not.toMatch(/forkpoint: /);
    expect(recorded.status).toBe(0);
    expect(existsSync(join(folder.path, 'checkpoints', 'forkpoint.db'))).toBe(true);
    const store = sqliteStore({ path: join(folder.path, 'checkpoints', 'forkpoint.db'), readOnly: true });
    expect((await createEngine({ store }).getRunSummary('0a0a0a0a')).scenario).toBe('scenarios/claims-triage');
    await store.close();
    // A run recorded elsewhere is replayed from yet another folder by the scenario it stored.
    const replayed = forkpointIn(folder.path, ['replay', '0a0a0a0a', '--json']);
    expect(replayed.status).toBe(0);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ mode: 'replay:strict', status: 'completed' });
  });

  it("lists the built-in scenario's input flags in record --help from another folder, as demo finds it", () => {
    const help = forkpointIn(folder.path, ['record', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/\nInput flags of scenario claims-triage:\n {2}--claim <VALUE> /);
  });

  it('stores a scenario inside the package by its path from the package root, and one outside by its absolute path', async () => {
    const db = join(folder.path, 'abs.db');
    await cli([
      'record',
      'test/fixtures/scenarios/refund-desk',
      '--order',
      'ORD-1',
      '--at',
      '2026-03-04',
      '--run-id',
      '0b0b0b0b',
      '--db',
      db,
    ]);
    const store = sqliteStore({ path: db, readOnly: true });
    // Inside this package's tree, so by its path from the package root.
    expect((await createEngine({ store }).getRunSummary('0b0b0b0b')).scenario).toBe(
      'test/fixtures/scenarios/refund-desk',
    );
    await store.close();
    expect(scenarioReference(folder.path)).toBe(folder.path);
    expect(scenarioReference(join(import.meta.dirname, '../../scenarios/claims-triage'))).toBe(
      'scenarios/claims-triage',
    );
  });
});

describe('forkpoint record, as it runs', () => {
  it('prints each step as it commits: the table grows on stdout, or progress goes to stderr beside --json', async () => {
    const db = join(folder.path, 'progress.db');
    const human = await cli([
      'record',
      'scenarios/claims-triage',
      '--claim',
      'CLM-91077',
      '--at',
      '2026-03-04',
      '--run-id',
      '9b40c1d5',
      '--db',
      db,
    ]);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^record · run 9b40c1d5 · /);
    expect(lines.slice(2, 11).map((line) => line.trim().split(/\s+/)[0])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
    ]);
    expect(lines[11]).toMatch(/^failed at step 9: VALIDATION_FAILED/);
    const json = await cli([
      'record',
      'scenarios/claims-triage',
      '--claim',
      'CLM-91077',
      '--at',
      '2026-03-04',
      '--run-id',
      '9b40c1d6',
      '--json',
      '--db',
      db,
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject({ runId: '9b40c1d6', status: 'failed' });
    expect(json.stderr.trimEnd().split('\n')).toEqual([
      'record: run 9b40c1d6 started',
      ...Array.from(
        { length: 9 },
        (_, i) =>
          `record: step ${i + 1} ${['model#0', 'fetch_claim#0', 'model#1', 'ocr_document#0', 'model#2', 'estimate_repair#0', 'model#3', 'fetch_policy#0', 'model#4'][i]} committed`,
      ),
    ]);
  });

  it('tells the library of each step once it is committed, and of the run before its first', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const engine = createEngine({ store });
    const seen: string[] = [];
    const { scenario } = await import('../support/incident.js');
    await engine.record({
      agent: scenario.builds.baseline!,
      world: scenario.openWorld({ at: '2026-03-04', seed: 1, latencyMs: 0 }),
      input: { claimId: 'CLM-91077' },
      runId: '9b40c1d5',
      // The store reads at once, as it is told: the promise only carries the answer.
      onStarted: (run) =>
        void store
          .readSteps('9b40c1d5')
          .then((rows) => seen.push(`started ${run.runId} ${run.status} with ${rows.length} row`)),
      // Committed already when told: the row is in the store.
      onStep: (step) =>
        void store.readSteps('9b40c1d5', step.step, step.step).then((rows) => seen.push(`${step.step} ${rows.length}`)),
    });
    expect(seen).toEqual(['started 9b40c1d5 running with 1 row', ...Array.from({ length: 9 }, (_, i) => `${i + 1} 1`)]);
  });
});

describe('forkpoint record-batch under --capture all', () => {
  it('says what it kept without contradicting the failures, and the storage of keeping all as one figure', async () => {
    const result = await cli([
      'record-batch',
      'scenarios/claims-triage',
      '--claims',
      'ALL',
      '--at',
      '2026-03-04',
      '--seed',
      '1',
      '--capture',
      'all',
      '--db',
      join(folder.path, 'batch.db'),
    ]);
    expect(result.stdout).toMatch(/^capture all: kept all 18 runs in full \(4 of them failed\)$/m);
    expect(result.stdout).toMatch(/^ {2}per day at 6000 runs: [\d.]+ MB; the default, errors\+sample:0\.01, keeps/m);
    expect(result.stdout).not.toMatch(/under all/);
  });
});
