import type { StepRecord } from '../step-record.js';
import type { RunRow } from '../sqlite/row-mapping.js';
import { runFromRow } from '../sqlite/row-mapping.js';
import type { PayloadSealer } from '../sealing/payload-sealer.js';
import type { RunRecord } from '../run-record.js';
import type { Provenance } from '../../vocabulary/index.js';
import type { StoredBytes } from './payload-columns.js';

/**
 * The columns of `runs` a record is read from and a new run is written to,
 * in the order an insert binds them. They are SQLite's columns, so that a
 * row maps to a record by the same checked mapping.
 */
export const RUN_COLUMNS = [
  'run_id',
  'mode',
  'agent_name',
  'build',
  'code_hash',
  'scenario',
  'input',
  'world_at',
  'seed',
  'status',
  'outcome',
  'error',
  'parent_run_id',
  'parent_step',
  'override',
  'source_run_id',
  'source_cassette',
  'findings',
  'canonical_form',
  'machine_version',
  'created_at',
  'finished_at',
  'step_count',
  'owner_pid',
  'owner_host',
  'owner_token',
  'lease_expires_at',
  'side_effects',
  'resumes',
  'override_changes',
  'tier',
  'expires_at',
  'structural_expires_at',
  'purged_at',
  'purge_reason',
  'usage',
  'signature',
  'signature_digest',
  'checkpoint_migration',
] as const satisfies ReadonlyArray<keyof RunRow>;

/** SQL: the step count of run `runs`: its last step while it runs (its rows say), the stored count once it ended. */
export const LAST_STEP = 'COALESCE((SELECT MAX(step) FROM steps WHERE steps.run_key = runs.run_key), runs.step_count)';

/** SQL: how a read selects a run (from `runs`), its step count computed while it runs. */
export const SELECT_RUN = RUN_COLUMNS.map((column) =>
  column === 'step_count'
    ? `CASE WHEN runs.status = 'running' THEN ${LAST_STEP} ELSE runs.step_count END AS step_count`
    : `runs.${column}`,
).join(', ');

/** A `runs` row as node-postgres returns it: `bigint` columns come as text. */
export type PostgresRunRow = Omit<RunRow, 'seed' | 'lease_expires_at'> & {
  readonly seed: string | number | null;
  readonly lease_expires_at: string | number | null;
};

const numberOf = (value: string | number | null): number | null => (value === null ? null : Number(value));

/**
 * Maps a `runs` row to a record, checked as SQLite's are (`STORE_CORRUPT` for
 * what forkpoint did not write), its sealed summary opened by `sealer`, which
 * must hold the keys it names (see `runKeyIds`): one it does not hold reads
 * as shredded.
 */
export function runOfRow(row: PostgresRunRow, sealer: PayloadSealer): RunRecord {
  return runFromRow({ ...row, seed: numberOf(row.seed), lease_expires_at: numberOf(row.lease_expires_at) }, sealer);
}

/** The columns of `steps` a record is read from, in the order of {@link StepRow}. */
export const STEP_COLUMNS =
  'step, kind, call_index, request_hash, request, message_count, response, is_error, provenance, message, message_digest, checkpoint, checkpoint_full, message_segment, side_effect';

/** A `steps` row as node-postgres returns it: its payload columns as bytes (see `payload-columns.ts`). */
export interface StepRow {
  readonly step: number;
  readonly kind: string | null;
  readonly call_index: number | null;
  readonly request_hash: string | null;
  readonly request: StoredBytes | null;
  readonly message_count: number | null;
  readonly response: StoredBytes | null;
  readonly is_error: boolean;
  readonly provenance: string | null;
  readonly message: StoredBytes | null;
  readonly message_digest: string | null;
  readonly checkpoint: StoredBytes;
  readonly checkpoint_full: boolean;
  readonly message_segment: string | null;
  readonly side_effect: boolean;
}

/** The payload columns of a {@link StepRow}, for the keys they name. */
export const stepPayloads = (row: StepRow): Array<StoredBytes | null> => [
  row.request,
  row.response,
  row.message,
  row.checkpoint,
];

/** Maps a `steps` row to a record, its payload columns opened by `open`. */
export function stepOfRow(row: StepRow, open: (bytes: StoredBytes) => string): StepRecord {
  const openNullable = (bytes: StoredBytes | null): string | null => (bytes === null ? null : open(bytes));
  return {
    step: row.step,
    kind: row.kind,
    index: row.call_index,
    requestHash: row.request_hash,
    request: openNullable(row.request),
    messageCount: row.message_count,
    response: openNullable(row.response),
    isError: row.is_error,
    provenance: row.provenance as Provenance | null,
    message: openNullable(row.message),
    messageDigest: row.message_digest,
    checkpoint: open(row.checkpoint),
    checkpointFull: row.checkpoint_full,
    messageSegment: row.message_segment,
    sideEffect: row.side_effect,
  };
}
