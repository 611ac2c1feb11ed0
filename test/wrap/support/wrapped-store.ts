import { expect } from 'vitest';
import { createEngine } from '../../../src/engine/index.js';
import { sqliteStore } from '../../../src/store/index.js';
import type { ProviderEmulator } from '../../../src/testing/index.js';
import type { ProcessResult } from '../../support/forkpoint-process.js';
import { forkpoint } from '../../support/forkpoint-process.js';
import type { WrappedRuns } from './wrapped-runs.js';
import { recordWrappedRuns, startWrappedEmulator } from './wrapped-runs.js';

/** When the wrapped runs of {@link wrappedStoreFile} are made. */
export const WRAPPED_MADE = '2026-03-04T10:00:00.000Z';

/** The clock of a read an hour after they were made: their full tier (72 hours) is still kept. */
export const READ_AFTER: readonly string[] = ['--now', '2026-03-04T11:00:00Z'];

/** A SQLite file holding the wrapped runs, and the emulator that answered them (still running: close it). */
export interface WrappedStoreFile {
  readonly runs: WrappedRuns;
  readonly ids: { readonly recorded: string; readonly replayed: string; readonly forked: string };
  readonly emulator: ProviderEmulator;
}

/** Records the wrapped loop's recording, strict replay and fork into the SQLite file `db`, and closes the store. */
export async function wrappedStoreFile(db: string): Promise<WrappedStoreFile> {
  const emulator = await startWrappedEmulator();
  const store = sqliteStore({ path: db });
  try {
    const runs = await recordWrappedRuns(createEngine({ store, clock: () => new Date(WRAPPED_MADE) }), emulator);
    const ids = { recorded: runs.recorded.runId, replayed: runs.replayed.runId, forked: runs.forked.runId };
    return { runs, ids, emulator };
  } catch (error) {
    await emulator.close();
    throw error;
  } finally {
    await store.close();
  }
}

/** The built CLI over `db`, read an hour after the runs were made; `json` expects success and parses stdout. */
export function builtCliOver(db: string): {
  readonly run: (args: readonly string[]) => Promise<ProcessResult>;
  readonly json: <T>(args: readonly string[]) => Promise<T>;
} {
  const run = (args: readonly string[]) => forkpoint([...args, '--db', db, ...READ_AFTER]);
  return {
    run,
    json: async <T>(args: readonly string[]): Promise<T> => {
      const result = await run([...args, '--json']);
      expect(result.stderr).toBe('');
      expect(result.exit).toBe(0);
      return JSON.parse(result.stdout) as T;
    },
  };
}
