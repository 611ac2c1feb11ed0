import type { RunRecord } from '../run-record.js';
import { sealingKeyIdOf } from '../sealing/run-sealing-key.js';
import type { Executor } from './sql-statement.js';
import { statement } from './sql-statement.js';

const SEALING_OF = statement('sealing_of', 'SELECT tier, expires_at, purged_at FROM runs WHERE run_id = $1');

// Runs whose key ids are remembered: a process writes a few runs at a time (a recorder one after another).
const REMEMBERED_RUNS = 256;

/**
 * The tier key each run's payloads are sealed under (see `sealingKeyIdOf`;
 * null: plain), remembered for the runs this process creates or reads one by
 * one, so that a step of a run it knows is sealed without reading the run's
 * row first: a step stays one statement. A run's tier and expiry never change
 * once it is made; a purged run's summary is plain.
 */
export interface RunKeys {
  /** The key id of run `runId`, read from the store (one statement) when it is not remembered; null for a run that is not there. */
  of(executor: Executor, runId: string): Promise<string | null>;
  /** Remembers the key id of a run just created or read. */
  remember(run: Pick<RunRecord, 'runId' | 'tier' | 'expiresAt' | 'purge'>): void;
}

/** The key id of a run's payloads: its tier key while its full tier lasts, null (plain) once purged or for good. */
export const runKeyIdOf = (run: Pick<RunRecord, 'tier' | 'expiresAt' | 'purge'>): string | null =>
  run.purge === null ? sealingKeyIdOf(run) : null;

/** An empty {@link RunKeys}. */
export function runKeys(): RunKeys {
  const known = new Map<string, string | null>();
  const set = (runId: string, keyId: string | null): void => {
    known.delete(runId);
    known.set(runId, keyId);
    const oldest = known.keys().next();
    if (known.size > REMEMBERED_RUNS && oldest.done !== true) known.delete(oldest.value);
  };
  return {
    async of(executor, runId) {
      const keyId = known.get(runId);
      if (keyId !== undefined) return keyId;
      const [row] = await executor.rows<{ tier: string; expires_at: string | null; purged_at: string | null }>(
        SEALING_OF,
        [runId],
      );
      if (row === undefined) return null;
      const found = row.purged_at === null ? sealingKeyIdOf({ tier: row.tier, expiresAt: row.expires_at }) : null;
      set(runId, found);
      return found;
    },
    remember(run) {
      set(run.runId, runKeyIdOf(run));
    },
  };
}
