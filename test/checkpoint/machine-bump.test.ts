import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMachineState } from '../../src/checkpoint/index.js';
import { MACHINE_MIGRATIONS, migrateMachineState, restoreCheckpoint } from '../../src/checkpoint/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { MACHINE_VERSION } from '../../src/machine/index.js';
import type { RunRecord, Store } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { tempFolder } from '../support/cli-harness.js';
import { makeDemoStore } from '../support/demo-store.js';
import { stampedAs } from '../support/stamped-store.js';

let folder: ReturnType<typeof tempFolder>;
let store: Store;
let runs: RunRecord[];

beforeAll(async () => {
  folder = tempFolder('forkpoint-machine-bump-');
  const demo = await makeDemoStore(folder.path);
  store = sqliteStore({ path: demo.db, readOnly: true });
  // Every run whose checkpoints are still stored: the demo purges some full tiers on purpose.
  runs = (await store.listRuns()).filter((run) => run.purge === null && run.stepCount > 0);
}, 120_000);

afterAll(async () => {
  await store.close();
  folder.cleanup();
});

/** Every checkpoint of every run still holding its rows: (run, step) pairs. */
const everyCheckpoint = () =>
  runs.flatMap((run) => Array.from({ length: run.stepCount + 1 }, (_, step) => ({ runId: run.runId, step })));

describe('a bump of the machine version', () => {
  it('restores every stored checkpoint of the demo database, written by version 1, through the migration it ships', async () => {
    const older = stampedAs(store, MACHINE_VERSION, 1);
    const checkpoints = everyCheckpoint();
    expect(runs.length).toBeGreaterThan(20);
    for (const { runId, step } of checkpoints) {
      const restored = await restoreCheckpoint(store, runId, step);
      const migrated = await restoreCheckpoint(older, runId, step);
      expect(migrated.machineMigrated, `${runId} checkpoint ${step}`).toEqual({ from: 1, to: MACHINE_VERSION });
      expect({ value: migrated.value, context: migrated.context }).toEqual({
        value: restored.value,
        context: restored.context,
      });
    }
  });

  it('migrates every stored state of the demo database to a machine that renamed a state, or refuses it whole', async () => {
    // A later forkpoint that renames `awaitingTools` to `awaitingCalls` ships this migration with its bump.
    const renamed = (state: StoredMachineState): StoredMachineState =>
      state.value === 'awaitingTools' ? { ...state, value: 'awaitingCalls' } : state;
    const next = MACHINE_VERSION + 1;
    const shipped = { ...MACHINE_MIGRATIONS, [MACHINE_VERSION]: renamed };
    let renamedStates = 0;
    for (const { runId, step } of everyCheckpoint()) {
      const { value, context } = await restoreCheckpoint(store, runId, step);
      const { messages: _messages, ...skeleton } = context;
      const stored: StoredMachineState = { value, context: skeleton };
      const migrated = migrateMachineState(stored, MACHINE_VERSION, `${runId}:${step}`, next, shipped);
      expect(migrated.value).toBe(value === 'awaitingTools' ? 'awaitingCalls' : value);
      expect(migrated.context).toEqual(stored.context);
      if (value === 'awaitingTools') renamedStates += 1;
      // Without the migration its bump should have shipped, the same checkpoint is refused by name.
      try {
        migrateMachineState(stored, MACHINE_VERSION, `${runId}:${step}`, next, MACHINE_MIGRATIONS);
        expect.unreachable();
      } catch (error) {
        expect(isForkpointError(error, 'CHECKPOINT_INCOMPATIBLE')).toBe(true);
        expect((error as Error).message).toContain(`no migration from version ${MACHINE_VERSION}`);
      }
    }
    expect(renamedStates).toBeGreaterThan(0);
  });
});
