import { restoreCheckpoint } from '../checkpoint/index.js';
import type { PriceTable } from '../pricing/index.js';
import type { RestoredCheckpoint } from '../checkpoint/index.js';
import type { Store, RetentionPeriods, StoreSettings } from '../store/index.js';
import type { EngineOptions } from '../driver/index.js';
import { isOwnerAlive, ownerCheck, resolveEngineDeps } from '../driver/index.js';
import {
  readRunView,
  requireRun,
  runNotFound,
  summarizeRun,
  runPage,
  fullCassetteOf,
  requireFullTier,
  structuralRecordOf,
  tierSizesOf,
  lineageTreeOf,
  exportCassette,
  readCassette,
  priceTablesOf,
} from '../read/index.js';
import type {
  RunPage,
  RunPageQuery,
  TierSizes,
  Lineage,
  RunSummary,
  RunView,
  ExportOptions,
  ExportedCassette,
} from '../read/index.js';
import type {
  RecordOptions,
  ForkOptions,
  ReexecuteOptions,
  ReplayOptions,
  ResumeOptions,
  ApproveOptions,
  ApproveResult,
  ForkResult,
  RecordResult,
  ReexecutionResult,
  ReplayResult,
  ResumeResult,
} from '../modes/index.js';
import { approveRun, recordRun, forkRun, reexecuteRun, replayRun, resumeRun } from '../modes/index.js';
import type { Cassette } from '../cassette/index.js';
import type { GcReport } from '../retention/index.js';
import { collectGarbage, checkedPeriods } from '../retention/index.js';
import type { JsonObject } from '../json/index.js';
import type { Session, SessionOptions } from '../wrap/index.js';
import { openSession } from '../wrap/index.js';

/**
 * The forkpoint engine: the modes, and reads over what they stored. The
 * workflows built on them (`verifyRun`, `runSuite`, `probeDrift`,
 * `divergenceReport`, `evaluateSynthetic`) are functions that take an engine.
 */
export interface Engine {
  readonly store: Store;
  /** Records a run against the live world (mode `record`). */
  record(options: RecordOptions): Promise<RecordResult>;
  /** Re-executes a build over a cassette (mode `replay:strict` or `replay:fidelity`). */
  replay(options: ReplayOptions): Promise<ReplayResult>;
  /** Runs a recorded run's input again against the world at another date (mode `reexecution`). */
  reexecute(options: ReexecuteOptions): Promise<ReexecutionResult>;
  /**
   * Restores the checkpoint after step N-1 of a run, changes one thing at step N (an override, or an edit
   * recipe whose draft `T` types), and continues live behind the side-effect firewall (mode `fork`).
   */
  fork<T = JsonObject>(options: ForkOptions<T>): Promise<ForkResult>;
  /**
   * Continues an interrupted run, or one the world or the firewall stopped, from its last committed
   * checkpoint, in the same run id, behind the side-effect firewall.
   */
  resume(options: ResumeOptions): Promise<ResumeResult>;
  /**
   * Answers the approval a run waits for (approved, or rejected with a
   * reason), as a step of its own bound to the exact call, and lets the run
   * go on in place until it ends or waits again.
   */
  approve(options: ApproveOptions): Promise<ApproveResult>;
  /**
   * The cassette of a stored run: every observation it received, by position
   * and request hash (`full`, the default), or its shape (`structural`).
   * Raises `CASSETTE_EXPIRED` when the tier asked for has expired or was not kept.
   */
  cassette(runId: string, tier?: 'full' | 'structural'): Promise<Cassette>;
  /**
   * A run's cassette as a file: a full tier sealed with the store's key for
   * its expiry day (or, asked for, in the clear and signed); the other tiers open.
   */
  exportCassette(runId: string, options?: ExportOptions): Promise<ExportedCassette>;
  /**
   * Reads a cassette file through this store: opens a sealed one with the
   * store's key, checks a plaintext full tier's seal, and refuses a full tier
   * that is neither (`CASSETTE_SEALED`, `CASSETTE_EXPIRED`, `CASSETTE_INVALID`).
   */
  readCassette(text: string, origin: string): Promise<Cassette>;
  /** The store's retention periods, and its id. */
  settings(): Promise<StoreSettings>;
  /** Changes the store's retention periods; runs made from now on get them. */
  updateSettings(change: Partial<RetentionPeriods>): Promise<StoreSettings>;
  /** The bytes of each tier of a run as a cassette file; null for a tier that is gone. */
  tierSizes(runId: string): Promise<TierSizes>;
  /** Enforces retention: removes what has expired by the engine's clock (see {@link GcReport}). */
  gc(): Promise<GcReport>;
  /** The price table a run of `scenario` is priced by (the scenario's prices over the engine's). */
  prices(scenario: string | null): Promise<PriceTable>;
  /** A run with its steps. */
  getRun(runId: string): Promise<RunView>;
  /** A run without its steps. */
  getRunSummary(runId: string): Promise<RunSummary>;
  /** Every run, oldest first, without steps. Reads the whole store: for a listing, see {@link Engine.runPage}. */
  listRuns(): Promise<RunSummary[]>;
  /** One page of runs, newest first, that match a query, and the cursor of the next page. */
  runPage(query?: RunPageQuery): Promise<RunPage>;
  /** The run's lineage: where it came from, and every fork, replay and re-execution made from it. */
  lineage(runId: string): Promise<Lineage>;
  /** The checkpoint after step `step` (0 is the state before any step). */
  checkpoint(runId: string, step: number): Promise<RestoredCheckpoint>;
  /**
   * Opens a session over a loop forkpoint does not drive: wrap its SDK client
   * and its tools, run it, close it (modes `record`, `replay:strict`,
   * `replay:fidelity`, `fork:prefix`).
   */
  session(options: SessionOptions): Promise<Session>;
}

/**
 * Creates an engine over a store. Clock, run ids and randomness default to the
 * real ones and can be injected for deterministic tests.
 *
 * @example
 * ```ts
 * const engine = createEngine({ store: sqliteStore({ path: 'checkpoints/forkpoint.db' }) });
 * const run = await engine.record({ agent: baseline, world: (seed) => openWorld({ at: '2026-03-04', seed }), input: { claimId: 'CLM-91077' } });
 * console.log(run.mode, run.status, run.error?.code);
 * ```
 */
export function createEngine(options: EngineOptions): Engine {
  const deps = resolveEngineDeps(options);
  return {
    store: deps.store,
    record: (recordOptions) => recordRun(deps, recordOptions),
    replay: (replayOptions) => replayRun(deps, replayOptions),
    reexecute: (reexecuteOptions) => reexecuteRun(deps, reexecuteOptions),
    fork: (forkOptions) => forkRun(deps, forkOptions),
    resume: (resumeOptions) => resumeRun(deps, resumeOptions),
    approve: (approveOptions) => approveRun(deps, approveOptions),
    // One consistent state for the run and every row its cassette is made of.
    cassette: (runId, tier = 'full') =>
      deps.store.read(async (reader) => {
        const run = await requireRun(reader, runId);
        return tier === 'full'
          ? fullCassetteOf(reader, run, deps.clock(), 'read the cassette of')
          : structuralRecordOf(reader, run, deps.clock());
      }),
    exportCassette: (runId, exportOptions) => exportCassette(deps, runId, exportOptions),
    readCassette: (text, origin) => readCassette(deps.store, text, origin),
    settings: () => deps.store.settings(),
    updateSettings: (change) => deps.store.updateSettings(checkedPeriods(change)),
    tierSizes: async (runId) => tierSizesOf(deps.store, await requireRun(deps.store, runId), deps.clock()),
    gc: () =>
      collectGarbage(
        deps.store,
        deps.clock(),
        (run) => run.status === 'running' && run.owner !== null && isOwnerAlive(deps, run.owner),
      ),
    // Every read applies the retention rule at the engine's clock, gc or not.
    prices: async (scenario) => await deps.prices(scenario),
    getRun: (runId) => readRunView(deps.store, runId, ownerCheck(deps), deps.prices, deps.clock()),
    getRunSummary: async (runId) => {
      const run = await requireRun(deps.store, runId);
      return summarizeRun(run, ownerCheck(deps), await deps.prices(run.scenario), deps.clock());
    },
    listRuns: async () => {
      const runs = await deps.store.listRuns();
      const tableOf = await priceTablesOf(deps.prices, runs);
      return runs.map((run) => summarizeRun(run, ownerCheck(deps), tableOf(run), deps.clock()));
    },
    lineage: async (runId) =>
      lineageTreeOf(deps.store, await requireRun(deps.store, runId), ownerCheck(deps), deps.prices, deps.clock()),
    runPage: (query) => runPage(deps.store, ownerCheck(deps), deps.prices, query, deps.clock()),
    // Two reads, no transaction: on a server each is one statement that sees one state, so a restore costs
    // two round trips at any step; a gc that removes the rows between them is told apart by the restore.
    session: (sessionOptions) => openSession(deps, sessionOptions),
    checkpoint: async (runId, step) => {
      const lineage = await deps.store.readLineage(runId);
      const run = lineage[0];
      if (run?.runId !== runId) throw runNotFound(deps.store, runId);
      const segments = await requireFullTier(deps.store, run, deps.clock(), 'restore a checkpoint of', lineage);
      return restoreCheckpoint(deps.store, runId, step, segments);
    },
  };
}
