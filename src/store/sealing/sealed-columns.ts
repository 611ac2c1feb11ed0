import type { PayloadSealer } from './payload-sealer.js';
import { isSealedText } from './sealed-text.js';
import { canonicalJson, isJsonObject } from '../../json/index.js';
import type { JsonValue } from '../../json/index.js';

/** Seals one payload column's text for the run being written: the identity for a run kept in plain text. */
export type ColumnSeal = (text: string) => string;

/** The seal of a run kept in plain text. */
export const PLAIN: ColumnSeal = (text) => text;

/** The seal of a run whose payloads go under tier key `keyId` (null: kept plain). */
export const columnSeal = (sealer: PayloadSealer, keyId: string | null): ColumnSeal =>
  keyId === null ? PLAIN : (text) => sealer.seal(text, keyId);

/** Seals one payload column of a step row: bytes, in the columns that take them (see migration 10). */
export type RowSeal = (text: string) => string | Buffer;

/** The row seal of a run whose payloads go under tier key `keyId` (null: kept plain). */
export const rowSeal = (sealer: PayloadSealer, keyId: string | null): RowSeal =>
  keyId === null ? PLAIN : (text) => sealer.sealBinary(text, keyId);

/** Seals a nullable column. */
export const sealed = (seal: ColumnSeal, text: string | null): string | null => (text === null ? null : seal(text));

/**
 * Seals a run error's column. Only its message is payload: its code and step
 * are what a purge keeps of it too, so they stay readable after the key is
 * gone, and the message goes in `sealedMessage`, a field no plain error has.
 */
export function sealedError(seal: ColumnSeal, text: string | null): string | null {
  if (text === null || seal === PLAIN) return text;
  const { message, ...rest } = JSON.parse(text) as { message: string };
  return canonicalJson({ ...rest, sealedMessage: seal(JSON.stringify(message)) });
}

/** The payload columns of a `runs` row (see `RunRow`). */
export interface RunPayloadColumns {
  readonly run_id: string;
  readonly input: string;
  readonly error: string | null;
  readonly override: string | null;
  readonly override_changes: string | null;
  readonly findings: string | null;
}

// What a summary column reads as once its key is gone (its run's full tier expired and the key was deleted
// before gc purged it): nothing of the payload is left to show, as a purge would leave its shape.
const SHREDDED_MESSAGE = "this run's error message was shredded with its full tier";

/**
 * A `runs` row with its payload columns opened: sealed ones decrypted, plain
 * ones as they are, and ones whose key is gone read as shredded (an empty
 * input, no findings, a fixed error message), so that a listing still shows
 * the run. Text forkpoint did not write fails as JSON would (`SyntaxError`).
 */
export function openedRunRow<Row extends RunPayloadColumns>(row: Row, sealer: PayloadSealer): Row {
  const whose = `run ${row.run_id}`;
  const open = (text: string | null, shredded: string | null): string | null =>
    text === null ? null : (sealer.tryOpen(text, whose) ?? shredded);
  if (
    !isSealed(row.input) &&
    !isSealed(row.override) &&
    !isSealed(row.override_changes) &&
    !isSealed(row.findings) &&
    row.error?.includes('"sealedMessage"') !== true
  )
    return row;
  return {
    ...row,
    input: open(row.input, '{}') ?? '{}',
    override: open(row.override, 'null'),
    override_changes: open(row.override_changes, null),
    findings: open(row.findings, null),
    error: openedError(row.error, (text) => open(text, JSON.stringify(SHREDDED_MESSAGE)) ?? 'null'),
  };
}

function openedError(text: string | null, open: (text: string) => string): string | null {
  if (text === null) return null;
  const error = JSON.parse(text) as JsonValue;
  if (!isJsonObject(error) || typeof error.sealedMessage !== 'string') return text;
  const { sealedMessage, ...rest } = error;
  return canonicalJson({ ...rest, message: JSON.parse(open(sealedMessage)) as JsonValue });
}

const isSealed = (text: string | null): boolean => text !== null && isSealedText(text);
