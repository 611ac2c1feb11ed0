import type { PayloadBlob } from '../payload/index.js';
import type { NewRunRecord, RunFinish, StepRecord, Store } from '../store/index.js';
import type { EngineDeps } from './engine-deps.js';
import { withFreshRunId } from './fresh-run-id.js';
import { keepLease } from './run-owner.js';

/** Where a run's rows go as the driver produces them. */
export interface RunSink {
  /** Creates the run, with row 0 for a new run or no row for a fork, or takes up a resumed one (`null`). */
  start(run: NewRunRecord, row: StepRecord | null, blobs: readonly PayloadBlob[]): Promise<void>;
  /** One step; with `finish`, the run's last, and the run ends with it. Resolves once it is stored. */
  step(row: StepRecord, blobs: readonly PayloadBlob[], finish?: RunFinish): Promise<void>;
  /** Ends a run whose last step did not (it stopped early, or its ending needed the whole drive). */
  finish(finish: RunFinish): Promise<void>;
  /** Lets go of the run, ended or not (stops renewing its owner lease). */
  close(): void;
  /** The id the run is stored under: the one it started with, or a fresh one when that was taken. */
  readonly runId: string;
  /** True for a sink that drops every row: the writer then does not make them (see {@link discardingSink}). */
  readonly discards?: true;
}

/** Options of {@link streamingSink} and {@link bufferedSink}. */
export interface SinkOptions {
  /** The run exists already (a resume): it is taken up, not created. */
  readonly resumes?: boolean;
  /** Mints another id when the run's minted one is taken (see `withFreshRunId`); null or absent for a chosen id. */
  readonly mintRunId?: (() => string) | null;
}

/**
 * Commits every row as it comes: a killed process keeps every completed step.
 * For runs that observe the live world, which cannot be redone exactly. The
 * run's owner (its `owner` field) renews its lease while the sink is open,
 * and every write names its token.
 */
export function streamingSink(
  store: Store,
  deps: Pick<EngineDeps, 'leaseClock' | 'leaseMs'>,
  options: SinkOptions = {},
): RunSink {
  let runId = '';
  let token = '';
  let stopLease = (): void => {};
  return {
    get runId() {
      return runId;
    },
    async start(run, row, blobs) {
      if (run.owner?.token == null) throw new Error('streamingSink: a streamed run needs an owner with a token');
      runId = run.runId;
      token = run.owner.token;
      if (options.resumes !== true)
        runId = (
          await withFreshRunId(run, options.mintRunId ?? null, (attempt) => store.createRun(attempt, row, blobs))
        ).runId;
      stopLease = keepLease(store, runId, run.owner, deps);
    },
    async step(row, blobs, finish) {
      await store.commitStep(runId, token, row, blobs, finish);
      if (finish !== undefined) stopLease();
    },
    async finish(finish) {
      await store.finishRun(runId, token, finish);
      stopLease();
    },
    close: () => {
      stopLease();
    },
  };
}

/**
 * Holds the rows and writes the whole run in one transaction when it ends:
 * for runs that are cheap to redo (replays), where one commit instead of one
 * per step is most of the speed. Such a run has no owner: it is never seen running.
 */
export function bufferedSink(store: Store, options: Pick<SinkOptions, 'mintRunId'> = {}): RunSink {
  let run: NewRunRecord | undefined;
  const rows: StepRecord[] = [];
  const blobs: PayloadBlob[] = [];
  return {
    get runId() {
      return run?.runId ?? '';
    },
    start(newRun, row, rowBlobs) {
      run = newRun;
      if (row !== null) rows.push(row);
      blobs.push(...rowBlobs);
      return Promise.resolve();
    },
    async step(row, rowBlobs, finish) {
      rows.push(row);
      blobs.push(...rowBlobs);
      if (finish !== undefined) await this.finish(finish);
    },
    async finish(finish) {
      if (run === undefined) throw new Error('bufferedSink: finish before start');
      run = await withFreshRunId(run, options.mintRunId ?? null, (attempt) =>
        store.writeRun(attempt, rows, blobs, finish),
      );
    },
    close: () => {},
  };
}

/**
 * Writes nothing: for replays whose runs nobody will read (a suite's, in a
 * store that is thrown away), whose results are made from the steps as they
 * happen. Keeping them cost memory in proportion to the number of replays,
 * and encoding rows only to drop them cost a suite time and garbage.
 */
export function discardingSink(): RunSink {
  let runId = '';
  return {
    get runId() {
      return runId;
    },
    start: (run) => {
      runId = run.runId;
      return Promise.resolve();
    },
    step: async () => {},
    finish: async () => {},
    close: () => {},
    discards: true,
  };
}
