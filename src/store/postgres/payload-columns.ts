import type { PayloadSealer } from '../sealing/payload-sealer.js';
import { sealingKeyIdOf } from '../sealing/run-sealing-key.js';
import { keyIdOfSealed } from '../sealing/sealed-text.js';
import type { RunPayloadColumns } from '../sealing/sealed-columns.js';

/**
 * How the PostgreSQL store keeps payloads. A step's payload columns and a
 * blob's body are `bytea`: a sealed payload in the sealer's binary form
 * (`PayloadSealer.sealBinary`, which starts with its version byte, 1), or a
 * plain one as its UTF-8 text, which is JSON and never starts with that byte.
 * A run's summary columns are `text`, sealed in the text form (see
 * `sealed-columns.ts`, shared with SQLite).
 */
export type StoredBytes = Buffer;

/** Seals one payload of the run being written, for a `bytea` column. */
export type BytesSeal = (text: string) => StoredBytes;

/** The bytes a payload column stores for `text`, sealed under tier key `keyId` (null: plain). */
export const bytesSeal =
  (sealer: PayloadSealer, keyId: string | null): BytesSeal =>
  (text) =>
    toBytes(keyId === null ? text : sealer.sealBinary(text, keyId));

const toBytes = (stored: string | Buffer): StoredBytes =>
  typeof stored === 'string' ? Buffer.from(stored, 'utf8') : stored;

/** What the sealer opens of a payload column's bytes: sealed bytes as they are, a plain payload as its text. */
export const storedOf = (bytes: StoredBytes): string | Buffer =>
  keyIdOfSealed(bytes) === undefined ? bytes.toString('utf8') : bytes;

/** The key a payload column's bytes are sealed under; undefined when they are plain (or null). */
export const keyIdOfBytes = (bytes: StoredBytes | null): string | undefined =>
  bytes === null ? undefined : keyIdOfSealed(bytes);

/** Opens one payload column's bytes, naming `whose` payload it is in errors (see `PayloadSealer.open`). */
export const openBytes = (sealer: PayloadSealer, bytes: StoredBytes, whose: string): string =>
  sealer.open(storedOf(bytes), whose);

/**
 * The keys a `runs` row's summary is sealed under: its sealed columns name
 * theirs, and an error's sealed message is its run's (see `sealedError`).
 */
export function runKeyIds(
  row: RunPayloadColumns & { readonly tier: string; readonly expires_at: string | null },
): Array<string | undefined> {
  const keyIds = [row.input, row.override, row.override_changes, row.findings].map((text) =>
    text === null ? undefined : keyIdOfSealed(text),
  );
  if (row.error?.includes('"sealedMessage"') === true)
    keyIds.push(sealingKeyIdOf({ tier: row.tier, expiresAt: row.expires_at }) ?? undefined);
  return keyIds;
}
