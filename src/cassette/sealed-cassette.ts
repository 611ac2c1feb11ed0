import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { ForkpointError } from '../errors/index.js';
import type { JsonObject } from '../json/index.js';
import { stableJson, isJsonObject } from '../json/index.js';
import type { Cassette, PlaintextSeal } from './cassette.js';

/** The format of a sealed (encrypted) cassette file. */
export const SEALED_FORMAT = 'forkpoint-sealed-cassette/1';

/**
 * What a sealed file says about itself in the clear, authenticated with its
 * content: which store and key sealed it, the run, and its tier and expiry.
 * Changing any of it makes the file fail to open.
 */
export type SealHeader = {
  /** The id of the store holding the key. */
  readonly store: string;
  /** The key's id: the tier and the day the key is deleted on (`full:2026-03-07`). */
  readonly key: string;
  readonly runId: string;
  readonly tier: 'full';
  readonly expiresAt: string | null;
  readonly recordedAt: string;
};

const DAY_MS = 86_400_000;

/**
 * The key that seals the full-tier cassettes expiring on the day `expiresAt`
 * falls on (UTC), and when it is deleted: once that day is over, so every
 * file it sealed has expired by then.
 */
export function sealingKeyFor(expiresAt: string): { readonly id: string; readonly deleteAfter: string } {
  const day = new Date(expiresAt).toISOString().slice(0, 10);
  return { id: `full:${day}`, deleteAfter: new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString() };
}

/** A store's key for sealing one tier's cassettes of one day. */
export interface SealingKey {
  readonly id: string;
  /** 32 bytes. */
  readonly secret: Uint8Array;
}

const CIPHER = 'aes-256-gcm';
const TAG_BYTES = 16;

/**
 * Encrypts a cassette's text with AES-256-GCM under the store's key for its
 * tier and day, its header as associated data. When the store deletes that
 * key at expiry, the file outlives it uselessly: no program, forkpoint
 * included, can read its payloads again.
 *
 * @param iv 12 fresh random bytes, never used twice with one key
 */
export function sealCassette(text: string, header: SealHeader, key: SealingKey, iv: Uint8Array): string {
  const cipher = createCipheriv(CIPHER, key.secret, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(stableJson(header)));
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  const file = {
    format: SEALED_FORMAT,
    cipher: CIPHER,
    header,
    iv: Buffer.from(iv).toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The header of a sealed file, checked; `CASSETTE_INVALID` naming what is wrong. */
export function sealHeaderOf(file: JsonObject, origin: string): SealHeader {
  const invalid = (problem: string) =>
    new ForkpointError('CASSETTE_INVALID', `sealed cassette ${origin} is not usable: ${problem}`);
  if (file.cipher !== CIPHER)
    throw invalid(`its cipher is ${JSON.stringify(file.cipher ?? null)}; forkpoint seals with ${CIPHER}`);
  const { header } = file;
  if (!isJsonObject(header)) throw invalid('it has no header');
  if (!isSealHeader(header))
    throw invalid('its header must name the store, key, runId, tier full, expiresAt and recordedAt');
  for (const field of ['iv', 'tag', 'ciphertext'] as const)
    if (typeof file[field] !== 'string') throw invalid(`it has no ${field}`);
  return header;
}

function isSealHeader(header: JsonObject): header is JsonObject & SealHeader {
  return (
    (['store', 'key', 'runId', 'recordedAt'] as const).every((field) => typeof header[field] === 'string') &&
    header.tier === 'full' &&
    (header.expiresAt === null || typeof header.expiresAt === 'string')
  );
}

/**
 * Decrypts a sealed file with its key and returns the cassette's text. A file
 * whose header or content was changed fails the authentication:
 * `CASSETTE_INVALID`, and nothing of it is used.
 */
export function openSealedCassette(file: JsonObject, header: SealHeader, key: SealingKey, origin: string): string {
  try {
    const bytes = (field: 'iv' | 'tag' | 'ciphertext'): Buffer => {
      const text = file[field];
      if (typeof text !== 'string') throw new Error(`its ${field} is not base64 text`);
      return Buffer.from(text, 'base64');
    };
    // authTagLength: without it Node accepts a truncated tag, which weakens the check to as few bytes.
    const decipher = createDecipheriv(CIPHER, key.secret, bytes('iv'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(stableJson(header)));
    decipher.setAuthTag(bytes('tag'));
    return Buffer.concat([decipher.update(bytes('ciphertext')), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new ForkpointError(
      'CASSETTE_INVALID',
      `sealed cassette ${origin} does not open with its key: its header or content was changed after it was sealed`,
      { cause: error },
    );
  }
}

/** What a plaintext seal vouches for: the facts that decide whether the file may still be used. */
function sealedFacts(cassette: Cassette): string {
  const facts = {
    runId: cassette.source.runId,
    tier: cassette.tier ?? 'full',
    expiresAt: cassette.expiresAt ?? null,
    recordedAt: cassette.source.recordedAt,
  };
  return stableJson(facts);
}

/** Signs a plaintext full-tier cassette's tier and expiry with the store's key for its day. */
export function plaintextSealOf(cassette: Cassette, store: string, key: SealingKey): PlaintextSeal {
  return { store, key: key.id, mac: createHmac('sha256', key.secret).update(sealedFacts(cassette)).digest('base64') };
}

/** True when a plaintext seal vouches for this cassette's tier and expiry under `key`. */
export function verifiesPlaintextSeal(cassette: Cassette, seal: PlaintextSeal, key: SealingKey): boolean {
  const expected = createHmac('sha256', key.secret).update(sealedFacts(cassette)).digest();
  const given = Buffer.from(seal.mac, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
