import type { PayloadBlob } from '../../payload/index.js';
import { collectReferences, collectRowReferences, noReferences } from '../blob-references.js';
import type { StepRecord } from '../step-record.js';
import { arrayLiteral } from './sql-statement.js';

/** The columns a step insert writes besides its run key, in the order {@link stepValues} gives them. */
export const STEP_INSERT_COLUMNS =
  'step, kind, call_index, request_hash, request, message_count, response, is_error, provenance, message, message_digest, checkpoint, checkpoint_full, message_segment, side_effect, refs, checkpoint_refs, message_refs';

/** The SQL types of {@link STEP_INSERT_COLUMNS}, for casts of their parameters. */
export const STEP_INSERT_TYPES = [
  'integer',
  'text',
  'integer',
  'text',
  'text',
  'integer',
  'text',
  'boolean',
  'text',
  'text',
  'text',
  'text',
  'boolean',
  'text',
  'boolean',
  'text[]',
  'text[]',
  'text[]',
] as const;

const referencesOf = (text: string | null): string[] => {
  const references = noReferences();
  collectReferences(text, references);
  return [...references.all];
};

/**
 * The values of a step row's insert. Its references are written beside its
 * payloads: everything it refers to (what keeps blobs alive), and what its
 * checkpoint and its message refer to (where a restore starts).
 */
export function stepValues(row: StepRecord): unknown[] {
  const all = noReferences();
  collectRowReferences([row.messageSegment, row.request, row.response, row.message, row.checkpoint], all);
  return [
    row.step,
    row.kind,
    row.index,
    row.requestHash,
    row.request,
    row.messageCount,
    row.response,
    row.isError,
    row.provenance,
    row.message,
    row.messageDigest,
    row.checkpoint,
    row.checkpointFull,
    row.messageSegment,
    row.sideEffect,
    [...all.all],
    referencesOf(row.checkpoint),
    referencesOf(row.message),
  ];
}

/**
 * The values of many step rows' insert, column by column (one array each,
 * for `unnest`); reference lists go as array literals, cast back in SQL.
 */
export function stepColumns(rows: readonly StepRecord[]): unknown[][] {
  const columns: unknown[][] = STEP_INSERT_TYPES.map(() => []);
  for (const row of rows) {
    const values = stepValues(row);
    for (const [i, column] of columns.entries()) {
      const value = values[i];
      column.push(Array.isArray(value) ? arrayLiteral(value as string[]) : value);
    }
  }
  return columns;
}

/**
 * A write's blobs as three parameter arrays (digests, bodies, their
 * references as array literals), in digest order: two writers storing the
 * same new blobs then take their index entries in the same order, so neither
 * waits for the other in a cycle.
 */
export function blobColumns(blobs: readonly PayloadBlob[]): [string[], string[], string[]] {
  const unique = new Map<string, string>();
  for (const blob of blobs) if (!unique.has(blob.digest)) unique.set(blob.digest, blob.body);
  const digests = [...unique.keys()].sort();
  const bodies: string[] = [];
  const refs: string[] = [];
  for (const digest of digests) {
    const body = unique.get(digest) ?? '';
    bodies.push(body);
    // Most bodies (a tool output) refer to nothing, and a plain search says so faster than the pattern.
    refs.push(arrayLiteral(body.includes('{"$') ? referencesOf(body) : []));
  }
  return [digests, bodies, refs];
}

/**
 * SQL: the blobs of parameters `$first` to `$first + 2` (see {@link blobColumns}), inserted unless
 * stored, and only once the run's row was found (`run`, a CTE of the statement).
 */
export const insertBlobs = (first: number): string =>
  `INSERT INTO blobs (digest, body, refs)
     SELECT b.digest, b.body, b.refs::text[]
       FROM run, unnest($${first}::text[], $${first + 1}::text[], $${first + 2}::text[]) AS b (digest, body, refs)
       ORDER BY b.digest COLLATE "C"
   ON CONFLICT (digest) DO NOTHING`;

/** SQL: the (blob, run) pairs of the references in parameter `$refs`, a `text[]`, for the run (`run`, a CTE). */
export const insertReach = (refs: number): string =>
  `INSERT INTO blob_reach (digest, run_key) SELECT DISTINCT ref, run.run_key FROM run, unnest($${refs}::text[]) AS ref
   ON CONFLICT DO NOTHING`;

/** SQL: the (blob, run) pairs of many rows' references (parameter `$refs`, array literals), for the run (`run`, a CTE). */
export const insertRowsReach = (refs: number): string =>
  `INSERT INTO blob_reach (digest, run_key)
     SELECT DISTINCT ref, run.run_key FROM run, unnest($${refs}::text[]) AS row_refs, unnest(row_refs::text[]) AS ref
   ON CONFLICT DO NOTHING`;

/** The position of the `refs` column among {@link STEP_INSERT_COLUMNS}, from 0. */
export const REFS_COLUMN = STEP_INSERT_COLUMNS.split(', ').indexOf('refs');

/** SQL: the step rows of parameters `$first` on (see {@link stepColumns}), inserted for the run (`run`, a CTE). */
export const insertSteps = (first: number): string => {
  const names = STEP_INSERT_COLUMNS.split(', ');
  const arrays = STEP_INSERT_TYPES.map((type, i) => `$${first + i}::${type.endsWith('[]') ? 'text' : type}[]`);
  const values = names.map((name, i) => (STEP_INSERT_TYPES[i] === 'text[]' ? `s.${name}::text[]` : `s.${name}`));
  return `INSERT INTO steps (run_key, ${STEP_INSERT_COLUMNS})
     SELECT run.run_key, ${values.join(', ')} FROM run, unnest(${arrays.join(', ')}) AS s (${STEP_INSERT_COLUMNS})`;
};

/** SQL: one step row of parameters `$first` on (see {@link stepValues}), inserted for the run (`run`, a CTE). */
export const insertStep = (first: number): string =>
  `INSERT INTO steps (run_key, ${STEP_INSERT_COLUMNS})
     SELECT run.run_key, ${STEP_INSERT_TYPES.map((type, i) => `$${first + i}::${type}`).join(', ')} FROM run`;
