import { isForkpointError } from '../errors/index.js';
import type { NewRunRecord } from '../store/index.js';
import { assertRunId } from './validate-inputs.js';

/**
 * Ids a new run tries before `RUN_EXISTS` is passed on. With 48-bit ids a
 * second collision in a row is as likely as the first squared; the bound only
 * stops a broken id source (one that repeats itself) from looping forever.
 */
export const RUN_ID_ATTEMPTS = 5;

/**
 * Creates a run with `create`, and when its minted id is taken (`RUN_EXISTS`),
 * again under a fresh one from `mintRunId`, so that a collision of random ids
 * never fails a run. An id the caller chose (`mintRunId` null) is never
 * replaced: its `RUN_EXISTS` is the answer. Returns the record as created.
 * Nothing of a refused attempt is written: `RUN_EXISTS` writes nothing.
 */
export async function withFreshRunId(
  run: NewRunRecord,
  mintRunId: (() => string) | null,
  create: (run: NewRunRecord) => Promise<void>,
): Promise<NewRunRecord> {
  let attempt = run;
  for (let tries = 1; ; tries++) {
    try {
      await create(attempt);
      return attempt;
    } catch (error) {
      if (mintRunId === null || tries >= RUN_ID_ATTEMPTS || !isForkpointError(error, 'RUN_EXISTS')) throw error;
      const runId = mintRunId();
      assertRunId(runId);
      attempt = { ...attempt, runId };
    }
  }
}
