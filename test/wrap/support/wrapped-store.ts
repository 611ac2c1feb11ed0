import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { createEngine } from '../../../src/engine/index.js';
import { sqliteStore } from '../../../src/store/index.js';
import type { ProviderEmulator } from '../../../src/testing/index.js';
import { tempFolder } from '../../support/cli-harness.js';
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

/** What {@link wrappedStoreFixture} gives a CLI test: the file, the built CLI over it, and the runs' ids once made. */
export interface WrappedStoreFixture extends ReturnType<typeof builtCliOver> {
  readonly folder: string;
  readonly db: string;
  readonly ids: WrappedStoreFile['ids'];
  /** The emulator that answered the runs, stopped after the file's tests. */
  readonly emulator: ProviderEmulator;
}

/**
 * A CLI test's wrapped store: a temporary folder with the SQLite file of the
 * wrapped runs, made before the file's tests and removed after them (the
 * emulator stopped). `ids` may be read once the tests run.
 */
export function wrappedStoreFixture(prefix: string): WrappedStoreFixture {
  const folder = tempFolder(prefix);
  const db = join(folder.path, 'wrapped.db');
  let made: WrappedStoreFile | undefined;
  beforeAll(async () => {
    made = await wrappedStoreFile(db);
  });
  afterAll(async () => {
    await made?.emulator.close();
    folder.cleanup();
  });
  const madeOnes = (): WrappedStoreFile => {
    if (made === undefined) throw new Error('the wrapped runs are made before the tests, not while they are collected');
    return made;
  };
  return {
    folder: folder.path,
    db,
    ...builtCliOver(db),
    get ids() {
      return madeOnes().ids;
    },
    get emulator() {
      return madeOnes().emulator;
    },
  };
}
