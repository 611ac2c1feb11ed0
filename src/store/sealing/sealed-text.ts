/**
 * How a sealed payload is stored, in one of two forms that hold the same
 * thing: the tier key's id, then `iv ‖ ciphertext ‖ tag` (AES-256-GCM).
 *
 * - Text, for TEXT columns: `sealed:1:<keyId>:<base64url(iv ‖ ciphertext ‖ tag)>`.
 *   Every plain payload column holds JSON, which never starts with `s`, so the
 *   prefix alone tells a sealed text from a plain one, and a sealed text never
 *   parses as JSON (a reader that skipped opening it fails loudly instead of
 *   reading ciphertext).
 * - Binary, for columns that take bytes (a blob's body, which is most of a
 *   store's bytes: base64 would add a third): version byte `1`, the key id's
 *   length in one byte, the key id, then the same bytes. Plain payloads are
 *   always text, so a binary value is always a sealed one.
 */
export const SEALED_PREFIX = 'sealed:';

const VERSION_PREFIX = `${SEALED_PREFIX}1:`;
const BINARY_VERSION = 1;

/** Bytes of a sealed payload's initialisation vector (AES-GCM's 96 bits). */
export const IV_BYTES = 12;
/** Bytes of a sealed payload's authentication tag. */
export const TAG_BYTES = 16;

/** A sealed payload taken apart; `bytes` is iv ‖ ciphertext ‖ tag. */
export interface SealedParts {
  readonly keyId: string;
  readonly bytes: Buffer;
}

/** True when `text` is a sealed payload in text form (of any version); a plain payload is JSON and never is. */
export const isSealedText = (text: string): boolean => text.startsWith(SEALED_PREFIX);

/** Writes a sealed payload's text form. */
export function formatSealed(keyId: string, bytes: Buffer): string {
  return `${VERSION_PREFIX}${keyId}:${bytes.toString('base64url')}`;
}

/** The header of a sealed payload's binary form: what comes before its iv. */
export function binaryHeader(keyId: string): Buffer {
  const id = Buffer.from(keyId, 'utf8');
  if (id.length > 255) throw new RangeError(`key id ${keyId} is longer than 255 bytes`);
  return Buffer.concat([Buffer.from([BINARY_VERSION, id.length]), id]);
}

/**
 * Takes a sealed payload apart; undefined when it is not one forkpoint can
 * read (another version, no key id, or too short to hold an iv and a tag). In
 * text, the key id may hold colons (`full:2026-03-07`); base64url never does,
 * so the last colon ends it.
 */
export function parseSealed(stored: string | Uint8Array): SealedParts | undefined {
  if (typeof stored !== 'string') {
    const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
    const start = 2 + (bytes[1] ?? 0);
    if (bytes[0] !== BINARY_VERSION || start === 2 || bytes.length < start + IV_BYTES + TAG_BYTES) return undefined;
    return { keyId: bytes.toString('utf8', 2, start), bytes: bytes.subarray(start) };
  }
  const keyId = keyIdOfSealed(stored);
  if (keyId === undefined) return undefined;
  const bytes = Buffer.from(stored.slice(VERSION_PREFIX.length + keyId.length + 1), 'base64url');
  return bytes.length < IV_BYTES + TAG_BYTES ? undefined : { keyId, bytes };
}

/** The key id a sealed payload names, read without decoding it; undefined for a plain text. */
export function keyIdOfSealed(stored: string | Uint8Array): string | undefined {
  if (typeof stored !== 'string') {
    const length = stored[1] ?? 0;
    return stored[0] === BINARY_VERSION && length > 0 && stored.length >= 2 + length
      ? Buffer.from(stored.buffer, stored.byteOffset + 2, length).toString('utf8')
      : undefined;
  }
  if (!stored.startsWith(VERSION_PREFIX)) return undefined;
  const end = stored.lastIndexOf(':');
  return end <= VERSION_PREFIX.length ? undefined : stored.slice(VERSION_PREFIX.length, end);
}
