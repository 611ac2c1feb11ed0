import type { KeyObject } from 'node:crypto';
import { createSecretKey, hkdfSync } from 'node:crypto';

/** HKDF's `info`: names what the derived key is for, so that it is independent of every other use of the secret. */
export const AT_REST_INFO = 'forkpoint payload at rest v1';

/**
 * The AES-256 key that seals payloads at rest under one tier key (a store's
 * export key of one expiry day): HKDF-SHA256 of its secret. The same secret
 * seals exported cassettes directly; the derived key is independent of that
 * use, so neither kind of ciphertext helps with the other, and deleting the
 * one row shreds both.
 */
export function atRestKeyOf(secret: Uint8Array): KeyObject {
  return createSecretKey(Buffer.from(hkdfSync('sha256', secret, new Uint8Array(0), AT_REST_INFO, 32)));
}
