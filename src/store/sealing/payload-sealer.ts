import type { KeyObject } from 'node:crypto';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ForkpointError } from '../../errors/index.js';
import { isReferenceText } from '../../payload/index.js';
import { atRestKeyOf } from './at-rest-key.js';
import {
  IV_BYTES,
  TAG_BYTES,
  binaryHeader,
  formatSealed,
  isSealedText,
  keyIdOfSealed,
  parseSealed,
} from './sealed-text.js';

const CIPHER = 'aes-256-gcm';
// IVs are drawn this many at a time: one draw from the system's generator costs about what sealing a small payload does.
const IVS_PER_DRAW = 256;
// A lone surrogate (half an emoji): UTF-8 has no bytes for it, so it would come back as U+FFFD.

/** The secret of a tier key by its id (`full:2026-03-07`); undefined once the key is deleted. */
export type TierKeyLookup = (keyId: string) => Uint8Array | undefined;

interface DerivedKey {
  readonly key: KeyObject;
  readonly aad: Buffer;
  readonly header: Buffer;
}

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
 * process keeps them in memory until it ends. A sealed payload is text for a
 * TEXT column or bytes for a column that takes them (see `sealed-text.ts`);
 * either opens the same way.
 */
export interface PayloadSealer {
  /**
   * `text` sealed under tier key `keyId`, as text: `CASSETTE_EXPIRED` when that
   * key is gone (the tier it seals has expired), `INTERNAL` when `text` is not
   * well-formed UTF-16 (a lone surrogate would not come back as it went in;
   * forkpoint's payload encoder escapes them, so none reaches here). A text
   * that is only a reference to a blob (`{"$blob":"<digest>"}`) comes back as
   * it is: it holds a digest, which a store keeps in the clear beside the
   * blob anyway, and sealing it would cost a cipher and 60 bytes for nothing.
   */
  seal(text: string, keyId: string): string;
  /**
   * {@link seal}, as bytes: a third smaller than text, for a column that takes
   * both (a text that is only a blob reference comes back as it is, text).
   */
  sealBinary(text: string, keyId: string): string | Buffer;
  /**
   * The plain text of a sealed payload, text or bytes; a text that is not
   * sealed (a plain run's, or one written before payloads were sealed) comes
   * back as it is. `CASSETTE_EXPIRED` when its key is gone, `STORE_CORRUPT`
   * when it does not open with its key (changed outside forkpoint). `whose`
   * names what holds the payload in those messages (`run 9b40c1d5`).
   */
  open(stored: string | Uint8Array, whose?: string): string;
  /** {@link open}, except that a payload whose key is gone gives undefined: it was shredded. */
  tryOpen(stored: string | Uint8Array, whose?: string): string | undefined;
  /** The key id a sealed payload names; undefined for a plain text. Reads no key. */
  keyIdOf(stored: string | Uint8Array): string | undefined;
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
  const derived = new Map<string, DerivedKey>();
  let ivs = Buffer.alloc(0);
  let nextIv = 0;

  // Per tier key: the derived key, the associated data (its id) and the binary form's header, made once.
  const keyOf = (keyId: string): DerivedKey | undefined => {
    let key = derived.get(keyId);
    if (key === undefined) {
      const secret = options.keys(keyId);
      if (secret === undefined) return undefined;
      key = { key: atRestKeyOf(secret), aad: Buffer.from(keyId), header: binaryHeader(keyId) };
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
  // A sealed payload's bytes: iv ‖ ciphertext ‖ tag, after the binary form's header when `binary`.
  const encrypt = (text: string, keyId: string, binary: boolean): Buffer => {
    // Native, and a fraction of a regular expression's cost on the step's path (Node 20 has it).
    if (!text.isWellFormed())
      throw new ForkpointError(
        'INTERNAL',
        'a payload to seal holds a lone surrogate, which the payload encoder escapes',
      );
    const key = keyOf(keyId);
    if (key === undefined) throw shredded(keyId, undefined, 'cannot be written');
    const iv = freshIv();
    const cipher = createCipheriv(CIPHER, key.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(key.aad);
    const parts = [iv, cipher.update(text, 'utf8')];
    // GCM is a stream cipher: final() gives nothing more, and one concatenation makes the value.
    const last = cipher.final();
    if (last.length > 0) parts.push(last);
    parts.push(cipher.getAuthTag());
    if (binary) parts.unshift(key.header);
    return Buffer.concat(parts);
  };
  const corrupt = (whose: string | undefined, problem: string, cause?: unknown): ForkpointError =>
    new ForkpointError(
      'STORE_CORRUPT',
      `a sealed payload of ${whose ?? 'the store'} ${problem}: it was changed outside forkpoint; restore the database from a copy`,
      cause === undefined ? {} : { cause },
    );

  const tryOpen = (stored: string | Uint8Array, whose?: string): string | undefined => {
    if (typeof stored === 'string' && !isSealedText(stored)) return stored;
    const parts = parseSealed(stored);
    if (parts === undefined) throw corrupt(whose, 'is not one forkpoint wrote (cut short, or of another version)');
    const key = keyOf(parts.keyId);
    if (key === undefined) return undefined;
    const { bytes } = parts;
    try {
      // authTagLength: without it Node accepts a truncated tag, which weakens the check to as few bytes.
      const decipher = createDecipheriv(CIPHER, key.key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(key.aad);
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const plain = decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES));
      const last = decipher.final();
      return (last.length === 0 ? plain : Buffer.concat([plain, last])).toString('utf8');
    } catch (error) {
      throw corrupt(whose, `does not open with its key ${parts.keyId}`, error);
    }
  };

  return {
    seal: (text, keyId) => (isReferenceText(text) ? text : formatSealed(keyId, encrypt(text, keyId, false))),
    sealBinary: (text, keyId) => (isReferenceText(text) ? text : encrypt(text, keyId, true)),
    open(stored, whose) {
      const plain = tryOpen(stored, whose);
      if (plain === undefined) throw shredded(keyIdOfSealed(stored) ?? '?', whose, 'were shredded');
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
