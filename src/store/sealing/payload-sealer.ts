import type { KeyObject } from 'node:crypto';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ForkpointError } from '../../errors/index.js';
import { atRestKeyOf } from './at-rest-key.js';
import { IV_BYTES, TAG_BYTES, formatSealed, isSealedText, keyIdOfSealed, parseSealed } from './sealed-text.js';

const CIPHER = 'aes-256-gcm';
// IVs are drawn this many at a time: one draw from the system's generator costs about what sealing a small payload does.
const IVS_PER_DRAW = 256;
// A lone surrogate (half an emoji): UTF-8 has no bytes for it, so it would come back as U+FFFD.
const LONE_SURROGATE = /\p{Cs}/u;

/** The secret of a tier key by its id (`full:2026-03-07`); undefined once the key is deleted. */
export type TierKeyLookup = (keyId: string) => Uint8Array | undefined;

/** Options of {@link createPayloadSealer}. */
export interface PayloadSealerOptions {
  /** The store's tier keys, read synchronously (a store over a network looks them up first and answers from what it fetched). */
  readonly keys: TierKeyLookup;
  /** Fresh random bytes, for IVs. Default `crypto.randomBytes`. */
  readonly randomBytes?: (count: number) => Uint8Array;
}

/**
 * Seals payload text at rest with AES-256-GCM under a key derived from a
 * tier key (see `atRestKeyOf`), the key id as associated data, so that
 * deleting the tier key when its day is over shreds every payload it sealed,
 * whatever copies of the bytes a disk, a log or a backup still holds. One per
 * store; it keeps the keys it derived until {@link PayloadSealer.forget}, and a
 * process keeps them in memory until it ends.
 */
export interface PayloadSealer {
  /**
   * `text` sealed under tier key `keyId`: `CASSETTE_EXPIRED` when that key is
   * gone (the tier it seals has expired), `INTERNAL` when `text` is not
   * well-formed UTF-16 (a lone surrogate would not come back as it went in;
   * forkpoint's payload encoder escapes them, so none reaches here).
   */
  seal(text: string, keyId: string): string;
  /**
   * The plain text of a sealed payload; a text that is not sealed (a plain
   * run's, or one written before payloads were sealed) comes back as it is.
   * `CASSETTE_EXPIRED` when its key is gone, `STORE_CORRUPT` when it does not
   * open with its key (changed outside forkpoint). `whose` names what holds the
   * payload in those messages (`run 9b40c1d5`).
   */
  open(text: string, whose?: string): string;
  /** {@link open}, except that a payload whose key is gone gives undefined: it was shredded. */
  tryOpen(text: string, whose?: string): string | undefined;
  /** The key id a sealed text names; undefined for a plain one. Reads no key. */
  keyIdOf(text: string): string | undefined;
  /** Drops the derived keys of these tier keys: call after deleting them, or when one may have been made anew. */
  forget(keyIds: Iterable<string>): void;
}

/**
 * Makes a {@link PayloadSealer} over a store's tier keys.
 *
 * @example
 * ```ts
 * const sealer = createPayloadSealer({ keys: (keyId) => exportKeys.secret(keyId) });
 * const stored = sealer.seal('{"claimId":"CLM-91077"}', 'full:2026-03-07');
 * sealer.open(stored); // '{"claimId":"CLM-91077"}'
 * ```
 */
export function createPayloadSealer(options: PayloadSealerOptions): PayloadSealer {
  const random = options.randomBytes ?? randomBytes;
  const derived = new Map<string, KeyObject>();
  let ivs = Buffer.alloc(0);
  let nextIv = 0;

  const keyOf = (keyId: string): KeyObject | undefined => {
    let key = derived.get(keyId);
    if (key === undefined) {
      const secret = options.keys(keyId);
      if (secret === undefined) return undefined;
      key = atRestKeyOf(secret);
      derived.set(keyId, key);
    }
    return key;
  };
  const freshIv = (): Buffer => {
    if (nextIv + IV_BYTES > ivs.length) {
      ivs = Buffer.from(random(IV_BYTES * IVS_PER_DRAW));
      nextIv = 0;
      if (ivs.length !== IV_BYTES * IVS_PER_DRAW)
        throw new ForkpointError('INTERNAL', 'the random source gave too few bytes');
    }
    const iv = ivs.subarray(nextIv, nextIv + IV_BYTES);
    nextIv += IV_BYTES;
    return iv;
  };
  const corrupt = (whose: string | undefined, problem: string, cause?: unknown): ForkpointError =>
    new ForkpointError(
      'STORE_CORRUPT',
      `a sealed payload of ${whose ?? 'the store'} ${problem}: it was changed outside forkpoint; restore the database from a copy`,
      cause === undefined ? {} : { cause },
    );

  const tryOpen = (text: string, whose?: string): string | undefined => {
    if (!isSealedText(text)) return text;
    const parts = parseSealed(text);
    if (parts === undefined) throw corrupt(whose, 'is not one forkpoint wrote (cut short, or of another version)');
    const key = keyOf(parts.keyId);
    if (key === undefined) return undefined;
    const { bytes } = parts;
    try {
      // authTagLength: without it Node accepts a truncated tag, which weakens the check to as few bytes.
      const decipher = createDecipheriv(CIPHER, key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(parts.keyId));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const plain = decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES));
      return Buffer.concat([plain, decipher.final()]).toString('utf8');
    } catch (error) {
      throw corrupt(whose, `does not open with its key ${parts.keyId}`, error);
    }
  };

  return {
    seal(text, keyId) {
      if (LONE_SURROGATE.test(text))
        throw new ForkpointError(
          'INTERNAL',
          'a payload to seal holds a lone surrogate, which the payload encoder escapes',
        );
      const key = keyOf(keyId);
      if (key === undefined) throw shredded(keyId, undefined, 'cannot be written');
      const iv = freshIv();
      const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(keyId));
      const sealed = Buffer.concat([iv, cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return formatSealed(keyId, sealed);
    },
    open(text, whose) {
      const plain = tryOpen(text, whose);
      if (plain === undefined) throw shredded(keyIdOfSealed(text) ?? '?', whose, 'were shredded');
      return plain;
    },
    tryOpen,
    keyIdOf: keyIdOfSealed,
    forget(keyIds) {
      for (const keyId of keyIds) derived.delete(keyId);
    },
  };
}

// The key of one expiry day is deleted once that day is over: what it sealed expired on that day.
function shredded(keyId: string, whose: string | undefined, what: string): ForkpointError {
  const day = keyId.slice(keyId.indexOf(':') + 1);
  return new ForkpointError(
    'CASSETTE_EXPIRED',
    `the full tier of ${whose ?? `the runs sealed with key ${keyId}`} expired on ${day}; its payloads ${what}: their key ${keyId} was deleted`,
  );
}
