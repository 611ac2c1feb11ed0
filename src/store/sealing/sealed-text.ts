/**
 * How a sealed payload is written in a TEXT column:
 * `sealed:1:<keyId>:<base64url(iv ‖ ciphertext ‖ tag)>`. Every plain payload
 * column holds JSON, which never starts with `s`, so the prefix alone tells a
 * sealed text from a plain one, and a sealed text never parses as JSON (a
 * reader that skipped opening it fails loudly instead of reading ciphertext).
 */
export const SEALED_PREFIX = 'sealed:';

const VERSION_PREFIX = `${SEALED_PREFIX}1:`;

/** Bytes of a sealed payload's initialisation vector (AES-GCM's 96 bits). */
export const IV_BYTES = 12;
/** Bytes of a sealed payload's authentication tag. */
export const TAG_BYTES = 16;

/** A sealed text taken apart; `bytes` is iv ‖ ciphertext ‖ tag. */
export interface SealedParts {
  readonly keyId: string;
  readonly bytes: Buffer;
}

/** True when `text` is a sealed payload (of any version); a plain payload is JSON and never is. */
export const isSealedText = (text: string): boolean => text.startsWith(SEALED_PREFIX);

/** Writes a sealed payload's text. */
export function formatSealed(keyId: string, bytes: Buffer): string {
  return `${VERSION_PREFIX}${keyId}:${bytes.toString('base64url')}`;
}

/**
 * Takes a sealed text apart; undefined when it is not one forkpoint can read
 * (another version, no key id, or too short to hold an iv and a tag). The key
 * id may hold colons (`full:2026-03-07`); base64url never does, so the last
 * colon ends it.
 */
export function parseSealed(text: string): SealedParts | undefined {
  if (!text.startsWith(VERSION_PREFIX)) return undefined;
  const end = text.lastIndexOf(':');
  if (end <= VERSION_PREFIX.length) return undefined;
  const bytes = Buffer.from(text.slice(end + 1), 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  return { keyId: text.slice(VERSION_PREFIX.length, end), bytes };
}

/** The key id a sealed text names, read without decoding it; undefined for a plain text. */
export function keyIdOfSealed(text: string): string | undefined {
  if (!text.startsWith(VERSION_PREFIX)) return undefined;
  const end = text.lastIndexOf(':');
  return end <= VERSION_PREFIX.length ? undefined : text.slice(VERSION_PREFIX.length, end);
}
