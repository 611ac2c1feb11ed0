import type { PayloadBlob } from '../payload/index.js';
import type { NewRunRecord, RunFinish, StepRecord, Store } from '../store/index.js';

/** Where a run's rows go as the driver produces them. */
export interface RunSink {
  /** Creates the run, with row 0 for a new run or no row for a fork. */
  start(run: NewRunRecord, row: StepRecord | null, blobs: readonly PayloadBlob[]): void;
  /** One step; with `finish`, the run's last, and the run ends with it. */
  step(row: StepRecord, blobs: readonly PayloadBlob[], finish?: RunFinish): void;
  /** Ends a run whose last step did not (it stopped early, or its ending needed the whole drive). */
  finish(finish: RunFinish): void;
}

/**
 * Commits every row as it comes: a killed process keeps every completed step.
 * For runs that observe the live world, which cannot be redone exactly.
 */
export function streamingSink(store: Store): RunSink {
  let runId = '';
  return {
    start(run, row, blobs) {
      runId = run.runId;
      store.createRun(run, row, blobs);
    },
    step: (row, blobs, finish) => store.commitStep(runId, row, blobs, finish),
    finish: (finish) => store.finishRun(runId, finish),
  };
}

/**
 * Holds the rows and writes the whole run in one transaction when it ends:
 * for runs that are cheap to redo (replays), where one commit instead of one
 * per step is most of the speed.
 */
export function bufferedSink(store: Store): RunSink {
  let run: NewRunRecord | undefined;
  const rows: StepRecord[] = [];
  const blobs: PayloadBlob[] = [];
  return {
    start(newRun, row, rowBlobs) {
      run = newRun;
      if (row !== null) rows.push(row);
      blobs.push(...rowBlobs);
    },
    step(row, rowBlobs, finish) {
      rows.push(row);
      blobs.push(...rowBlobs);
      if (finish !== undefined) this.finish(finish);
    },
    finish(finish) {
      if (run === undefined) throw new Error('bufferedSink: finish before start');
      store.writeRun(run, rows, blobs, finish);
    },
  };
}
