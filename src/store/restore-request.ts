import type { CheckpointRow, MessageLog } from './step-record.js';

/** A run's own rows over a range of steps (inclusive), whose messages a restore reads. */
export interface MessageRange {
  readonly runId: string;
  readonly from: number;
  readonly to: number;
}

/** What restoring one checkpoint reads once its lineage is known (see `StoreReader.readRestore`). */
export interface RestoreRequest {
  /** The run whose own rows hold the checkpoint, and its step. */
  readonly chain: { readonly runId: string; readonly step: number };
  /** The message ranges of the trajectory up to the checkpoint, oldest first. */
  readonly logs: readonly MessageRange[];
}

/** The answer to a {@link RestoreRequest}, read in one consistent state of the store. */
export interface RestoreRows {
  /** As `readCheckpointChain(chain.runId, chain.step)`. */
  readonly chain: CheckpointRow[];
  /** As `readMessages` of each range, in the order asked. */
  readonly logs: MessageLog[];
  /**
   * The body of every blob the chain's checkpoints and the logs' messages
   * refer to, through `$tree` blobs too: all a decode needs, so that it reads
   * nothing more. A blob the store does not hold is absent.
   */
  readonly blobs: ReadonlyMap<string, string>;
}
