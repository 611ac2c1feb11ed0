import type { PayloadBlob } from '../payload/index.js';
import type { NewRunRecord, RunFinish, RunRecord } from './run-record.js';
import type { StepRecord } from './step-record.js';
import type { ResumeClaim, Store } from './store.js';

/**
 * The run and step writes of a store whose engine answers synchronously
 * (better-sqlite3, or memory): each one all or nothing by the time it returns.
 * Both shipped stores write through these, and {@link asyncRunWrites} lifts
 * them to the `Store` port.
 */
export interface SyncRunWrites {
  createRun(run: NewRunRecord, start: StepRecord | null, blobs: readonly PayloadBlob[]): void;
  commitStep(
    runId: string,
    ownerToken: string,
    step: StepRecord,
    blobs: readonly PayloadBlob[],
    finish?: RunFinish,
  ): void;
  finishRun(runId: string, ownerToken: string, finish: RunFinish): void;
  renewLease(runId: string, ownerToken: string, leaseExpiresAt: number): boolean;
  resumeRun(claim: ResumeClaim): void;
  writeRun(run: NewRunRecord, rows: readonly StepRecord[], blobs: readonly PayloadBlob[], finish: RunFinish): void;
  importRun(run: RunRecord, rows: readonly StepRecord[], blobs: readonly PayloadBlob[], structural?: string): void;
}

/** The `Store` methods {@link SyncRunWrites} implement. */
export type RunWriteMethods =
  'createRun' | 'commitStep' | 'finishRun' | 'renewLease' | 'resumeRun' | 'writeRun' | 'importRun';

/**
 * The port's run writes over synchronous ones, each run through `write`: the
 * store's own turn-taking with its reads, and its own errors.
 */
export function asyncRunWrites(
  writes: SyncRunWrites,
  write: <T>(work: () => T) => Promise<T>,
): Pick<Store, RunWriteMethods> {
  return {
    createRun: (run, start, blobs) =>
      write(() => {
        writes.createRun(run, start, blobs);
      }),
    commitStep: (runId, ownerToken, step, blobs, finish) =>
      write(() => {
        writes.commitStep(runId, ownerToken, step, blobs, finish);
      }),
    finishRun: (runId, ownerToken, finish) =>
      write(() => {
        writes.finishRun(runId, ownerToken, finish);
      }),
    renewLease: (runId, ownerToken, leaseExpiresAt) =>
      write(() => writes.renewLease(runId, ownerToken, leaseExpiresAt)),
    resumeRun: (claim) =>
      write(() => {
        writes.resumeRun(claim);
      }),
    writeRun: (run, rows, blobs, finish) =>
      write(() => {
        writes.writeRun(run, rows, blobs, finish);
      }),
    importRun: (run, rows, blobs, structural) =>
      write(() => {
        writes.importRun(run, rows, blobs, structural);
      }),
  };
}
