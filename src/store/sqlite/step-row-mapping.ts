import type { StepRecord } from '../step-record.js';
import type { Provenance } from '../../vocabulary/index.js';
import type { RowSeal } from '../sealing/sealed-columns.js';

/** A payload column of a step row as stored: plain text, or sealed bytes (see `PayloadSealer.sealBinary`). */
export type StoredPayload = string | Buffer;

/** A `steps` row as better-sqlite3 returns it. */
export interface StepRow {
  step: number;
  kind: string | null;
  call_index: number | null;
  request_hash: string | null;
  request: StoredPayload | null;
  message_count: number | null;
  response: StoredPayload | null;
  is_error: number;
  provenance: string | null;
  message: StoredPayload | null;
  message_digest: string | null;
  checkpoint: StoredPayload;
  checkpoint_full: number;
  message_segment: string | null;
  side_effect: number;
}

/** Opens one sealed payload column of a run's row (see `PayloadSealer.open`). */
export type ColumnOpen = (stored: StoredPayload) => string;

const openNullable = (open: ColumnOpen, stored: StoredPayload | null): string | null =>
  stored === null ? null : open(stored);

/** Maps a `steps` row to a record, its payload columns opened by `open`. */
export function stepFromRow(row: StepRow, open: ColumnOpen): StepRecord {
  return {
    step: row.step,
    kind: row.kind,
    index: row.call_index,
    requestHash: row.request_hash,
    request: openNullable(open, row.request),
    messageCount: row.message_count,
    response: openNullable(open, row.response),
    isError: row.is_error === 1,
    provenance: row.provenance as Provenance | null,
    message: openNullable(open, row.message),
    messageDigest: row.message_digest,
    checkpoint: open(row.checkpoint),
    checkpointFull: row.checkpoint_full === 1,
    messageSegment: row.message_segment,
    sideEffect: row.side_effect === 1,
  };
}

/**
 * A step row's rowid is `run_key * STEP_KEY_SPAN + step` (migration 4): a run's
 * rows are one range of the table, in step order, and a new run's go at its end.
 */
export const STEP_KEY_SPAN = 2 ** 24;

/** A step's columns besides its keys, in the order {@link stepToValues} gives their values after them. */
export const STEP_COLUMNS =
  'step, kind, call_index, request_hash, request, message_count, response, is_error, provenance, message, message_digest, checkpoint, checkpoint_full, message_segment, side_effect';

/**
 * The bind values of a step insert, by position, its payload columns (request,
 * response, message, checkpoint) sealed by `seal`: a step is written on every
 * commit, and positional binding spares a parameter object and a lookup by
 * name for each of its sixteen columns.
 */
export function stepToValues(runKey: number, step: StepRecord, seal: RowSeal): Array<StoredPayload | number | null> {
  return [
    runKey * STEP_KEY_SPAN + step.step,
    runKey,
    step.step,
    step.kind,
    step.index,
    step.requestHash,
    step.request === null ? null : seal(step.request),
    step.messageCount,
    step.response === null ? null : seal(step.response),
    step.isError ? 1 : 0,
    step.provenance,
    step.message === null ? null : seal(step.message),
    step.messageDigest,
    seal(step.checkpoint),
    step.checkpointFull ? 1 : 0,
    step.messageSegment,
    step.sideEffect ? 1 : 0,
  ];
}
