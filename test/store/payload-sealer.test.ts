import { createDecipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/json/index.js';
import { decodePayloads, encodePayload } from '../../src/payload/index.js';
import { createPayloadSealer } from '../../src/store/sealing/payload-sealer.js';
import { outlives, sealingKeyIdOf } from '../../src/store/sealing/run-sealing-key.js';
import { thrown } from '../support/thrown.js';

const KEY_ID = 'full:2026-03-07';
const OTHER_ID = 'full:2026-03-08';

function sealerOver(keys: Map<string, Uint8Array>, random?: (count: number) => Uint8Array) {
  return createPayloadSealer({
    keys: (keyId) => keys.get(keyId),
    ...(random === undefined ? {} : { randomBytes: random }),
  });
}

const freshKeys = (): Map<string, Uint8Array> =>
  new Map([
    [KEY_ID, new Uint8Array(randomBytes(32))],
    [OTHER_ID, new Uint8Array(randomBytes(32))],
  ]);

// Swaps the byte at `at` of a sealed text's payload for another, keeping the text well formed.
function withByte(sealed: string, at: number, change: (byte: number) => number): string {
  const end = sealed.lastIndexOf(':');
  const bytes = Buffer.from(sealed.slice(end + 1), 'base64url');
  bytes[at] = change(bytes[at]!);
  return `${sealed.slice(0, end + 1)}${bytes.toString('base64url')}`;
}

function withBytes(sealed: string, cut: (bytes: Buffer) => Buffer): string {
  const end = sealed.lastIndexOf(':');
  return `${sealed.slice(0, end + 1)}${cut(Buffer.from(sealed.slice(end + 1), 'base64url')).toString('base64url')}`;
}

describe('createPayloadSealer', () => {
  it('gives back every text byte for byte: unicode, emoji, escaped lone surrogates, empty and large', async () => {
    const sealer = sealerOver(freshKeys());
    const value: JsonValue = {
      narrative: 'Schaden am Dach, 屋根の損傷, ضرر السقف, 🌩️🏠 (hail)',
      // Half an emoji, as truncated model output holds: the payload encoder escapes it.
      truncated: 'cut here: \ud83d',
      lowHalf: '\ude00 alone',
      control: '\u0000\u001f\u2028',
      long: 'x'.repeat(70_000),
    };
    const blobs = new Map<string, string>();
    const encoded = encodePayload(value, blobs);
    // The root is large, so it is a reference to a blob, kept as it is; the blobs hold the payload.
    expect(sealer.seal(encoded, KEY_ID)).toBe(encoded);
    const texts = [...blobs.values(), '', '"\\ud83d"', JSON.stringify('🌩️'.repeat(1000))];
    // The root blob holds the escaped halves as the encoder wrote them.
    expect([...blobs.values()].some((body) => body.includes('cut here: \\ud83d'))).toBe(true);
    for (const text of texts) {
      const sealed = sealer.seal(text, KEY_ID);
      expect(sealed.startsWith(`sealed:1:${KEY_ID}:`)).toBe(true);
      expect(sealer.open(sealed)).toBe(text);
      expect(sealer.open(sealer.sealBinary(text, KEY_ID))).toBe(text);
    }
    // Through the encoder and back: the lone surrogates survive sealing, as they survive storage.
    const sealedBlobs = new Map([...blobs].map(([digest, body]) => [digest, sealer.seal(body, KEY_ID)]));
    const [decoded] = await decodePayloads([sealer.open(sealer.seal(encoded, KEY_ID))], (digests) => {
      const found = new Map<string, string>();
      for (const digest of digests) found.set(digest, sealer.open(sealedBlobs.get(digest)!));
      return Promise.resolve(found);
    });
    expect(decoded).toEqual(value);
  });

  it('seals as bytes too, a third smaller than text, opened the same way', () => {
    const keys = freshKeys();
    const sealer = sealerOver(keys);
    const text = JSON.stringify({ narrative: 'Hagelschaden 🌩️ '.repeat(200), cut: '\ud83d' });
    const sealed = sealer.sealBinary(text, KEY_ID);
    if (typeof sealed === 'string') throw new Error('sealed as text');
    const bytes = sealed;
    const asText = sealer.seal(text, KEY_ID);
    expect(sealer.open(bytes)).toBe(text);
    expect(sealer.keyIdOf(bytes)).toBe(KEY_ID);
    // Version, key id length, key id, iv, ciphertext (as long as the UTF-8), tag.
    expect(bytes.length).toBe(2 + KEY_ID.length + 12 + Buffer.byteLength(text) + 16);
    expect(asText.length).toBeGreaterThan(bytes.length * 1.3);
    expect(bytes.toString('latin1')).not.toContain('Hagelschaden');
    const tampered = Buffer.from(bytes);
    tampered[40] = tampered[40]! ^ 1;
    expect(thrown(() => sealer.open(tampered)).code).toBe('STORE_CORRUPT');
    expect(thrown(() => sealer.open(bytes.subarray(0, 20))).code).toBe('STORE_CORRUPT');
    expect(thrown(() => sealer.open(Buffer.from([2, 1, 65, ...bytes.subarray(3)]))).code).toBe('STORE_CORRUPT');
    keys.delete(KEY_ID);
    sealer.forget([KEY_ID]);
    expect(thrown(() => sealer.open(bytes, 'blob 0f')).code).toBe('CASSETTE_EXPIRED');
    expect(sealer.tryOpen(bytes)).toBeUndefined();
  });

  it('keeps a text that is only a blob reference as it is: it holds a digest, stored in the clear anyway', () => {
    const sealer = sealerOver(freshKeys());
    const digest = '0123456789abcdef0123456789abcdef';
    for (const reference of [`{"$blob":"${digest}"}`, `{"$tree":"${digest}"}`]) {
      expect(sealer.seal(reference, KEY_ID)).toBe(reference);
      expect(sealer.sealBinary(reference, KEY_ID)).toBe(reference);
      expect(sealer.open(reference)).toBe(reference);
    }
    // Anything more than one reference is payload, and sealed.
    for (const text of [
      `{"$blob":"${digest}","x":1}`,
      `[{"$blob":"${digest}"}]`,
      `{"$literal":{"$blob":"${digest}"}}`,
    ]) {
      expect(sealer.seal(text, KEY_ID).startsWith('sealed:1:')).toBe(true);
      expect(Buffer.isBuffer(sealer.sealBinary(text, KEY_ID))).toBe(true);
    }
  });

  it('refuses to seal a raw lone surrogate, which UTF-8 could not give back', () => {
    const sealer = sealerOver(freshKeys());
    expect(thrown(() => sealer.seal('{"a":"\ud83d"}', KEY_ID)).code).toBe('INTERNAL');
    expect(thrown(() => sealer.seal('\ude00', KEY_ID)).code).toBe('INTERNAL');
    expect(thrown(() => sealer.sealBinary('"\ud83d"', KEY_ID)).code).toBe('INTERNAL');
    // A whole emoji is two surrogates, well formed.
    expect(sealer.open(sealer.seal('"\ud83d\ude00"', KEY_ID))).toBe('"😀"');
  });

  it('seals a text differently each time, never as JSON, and names its key', () => {
    const sealer = sealerOver(freshKeys());
    const text = '{"claimId":"CLM-91077"}';
    const first = sealer.seal(text, KEY_ID);
    const second = sealer.seal(text, KEY_ID);
    expect(first).not.toBe(second);
    expect(first).not.toContain('CLM-91077');
    expect(() => JSON.parse(first) as unknown).toThrow(SyntaxError);
    expect(sealer.open(first)).toBe(text);
    expect(sealer.open(second)).toBe(text);
    expect(sealer.keyIdOf(first)).toBe(KEY_ID);
    expect(sealer.keyIdOf(text)).toBeUndefined();
  });

  it('passes a plain text through unchanged', () => {
    const sealer = sealerOver(new Map());
    for (const text of ['{"a":1}', '[]', '"sealed:1:full:2026-03-07:AAAA"', 'null', ''])
      expect(sealer.open(text)).toBe(text);
  });

  it('refuses a sealed text changed anywhere: ciphertext, iv, tag, or its key id', () => {
    const keys = freshKeys();
    const sealer = sealerOver(keys);
    const sealed = sealer.seal('{"payout":1845}', KEY_ID);
    const length = Buffer.from(sealed.slice(sealed.lastIndexOf(':') + 1), 'base64url').length;
    for (const at of [0, 11, 12, length - 17, length - 16, length - 1]) {
      const error = thrown(() => sealer.open(withByte(sealed, at, (byte) => byte ^ 1)));
      expect(error.code, `byte ${at}`).toBe('STORE_CORRUPT');
      expect(error.message).toMatch(/does not open with its key full:2026-03-07/);
    }
    // The key id is authenticated: the same bytes under another key id, even one with the same secret, do not open.
    keys.set(OTHER_ID, keys.get(KEY_ID)!);
    const relabelled = sealer.seal('{"payout":1845}', KEY_ID).replace(KEY_ID, OTHER_ID);
    expect(thrown(() => sealer.open(relabelled)).code).toBe('STORE_CORRUPT');
    expect(thrown(() => sealer.open('sealed:2:full:2026-03-07:AAAA')).code).toBe('STORE_CORRUPT');
    expect(thrown(() => sealer.open(`sealed:1:${KEY_ID}:AAAA`)).code).toBe('STORE_CORRUPT');
  });

  it('refuses a truncated tag: every cut of the last bytes fails', () => {
    const sealer = sealerOver(freshKeys());
    const sealed = sealer.seal('{"decision":"approve"}', KEY_ID);
    for (let cut = 1; cut <= 15; cut++) {
      const short = withBytes(sealed, (bytes) => bytes.subarray(0, bytes.length - cut));
      expect(thrown(() => sealer.open(short)).code, `${cut} bytes cut`).toBe('STORE_CORRUPT');
    }
  });

  it('says CASSETTE_EXPIRED when the key is gone, naming whose payload it was, and tryOpen says undefined', () => {
    const keys = freshKeys();
    const sealer = sealerOver(keys);
    const sealed = sealer.seal('{"holder":"Quillon"}', KEY_ID);
    keys.delete(KEY_ID);
    // The derived key is kept until forgotten: the limit of a running process.
    expect(sealer.open(sealed)).toBe('{"holder":"Quillon"}');
    sealer.forget([KEY_ID]);
    const error = thrown(() => sealer.open(sealed, 'run 9b40c1d5'));
    expect(error.code).toBe('CASSETTE_EXPIRED');
    expect(error.message).toMatch(
      /^the full tier of run 9b40c1d5 expired on 2026-03-07; its payloads were shredded: their key full:2026-03-07 was deleted$/,
    );
    expect(sealer.tryOpen(sealed)).toBeUndefined();
    expect(sealer.tryOpen('{"plain":true}')).toBe('{"plain":true}');
    expect(thrown(() => sealer.seal('{}', KEY_ID)).code).toBe('CASSETTE_EXPIRED');
    // A fresh sealer over the same lookup cannot read it either.
    expect(thrown(() => sealerOver(keys).open(sealed)).code).toBe('CASSETTE_EXPIRED');
  });

  it('derives its key: the tier key itself does not open what it sealed', () => {
    const keys = freshKeys();
    const sealed = sealerOver(keys).seal('{"a":"b"}', KEY_ID);
    const bytes = Buffer.from(sealed.slice(sealed.lastIndexOf(':') + 1), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keys.get(KEY_ID)!, bytes.subarray(0, 12), { authTagLength: 16 });
    decipher.setAAD(Buffer.from(KEY_ID));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    decipher.update(bytes.subarray(12, bytes.length - 16));
    expect(() => decipher.final()).toThrow();
  });

  it('draws its IVs from the injected randomness, many at a time', () => {
    const draws: number[] = [];
    let counter = 0;
    const random = (count: number): Uint8Array => {
      draws.push(count);
      const bytes = new Uint8Array(count);
      for (let i = 0; i < count; i++) bytes[i] = counter++ % 256;
      return bytes;
    };
    const keys = new Map([[KEY_ID, new Uint8Array(32).fill(7)]]);
    const sealed = Array.from({ length: 300 }, () => sealerOver(keys, random).seal('{}', KEY_ID));
    const again = Array.from({ length: 300 }, () =>
      sealerOver(keys, (count) => new Uint8Array(count)).seal('{}', KEY_ID),
    );
    // One draw per sealer here; a sealer draws again only once its IVs are used up.
    expect(draws.every((count) => count === 12 * 256)).toBe(true);
    expect(new Set(again).size).toBe(1);
    expect(sealed[0]!.slice(sealed[0]!.lastIndexOf(':') + 1).slice(0, 16)).toBe(
      Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]).toString('base64url'),
    );
    const one = sealerOver(keys, random);
    draws.length = 0;
    const ivs = new Set(Array.from({ length: 257 }, () => one.seal('{}', KEY_ID).slice(0, 40)));
    expect(draws).toHaveLength(2);
    expect(ivs.size).toBeGreaterThan(1);
  });
});

describe('which key a run seals under', () => {
  it('is its tier key for a full tier with an expiry, and none otherwise', () => {
    expect(sealingKeyIdOf({ tier: 'full', expiresAt: '2026-03-07T17:42:00.000Z' })).toBe('full:2026-03-07');
    expect(sealingKeyIdOf({ tier: 'full', expiresAt: '2026-03-08T02:00:00.000+09:00' })).toBe('full:2026-03-07');
    expect(sealingKeyIdOf({ tier: 'full', expiresAt: null })).toBeNull();
    expect(sealingKeyIdOf({ tier: 'synthetic', expiresAt: null })).toBeNull();
    expect(sealingKeyIdOf({ tier: 'structural', expiresAt: '2026-03-07T17:42:00.000Z' })).toBeNull();
  });

  it('moves a blob to a later key, or to plain text, never to an earlier one', () => {
    expect(outlives('full:2026-03-08', 'full:2026-03-07')).toBe(true);
    expect(outlives(null, 'full:2026-03-07')).toBe(true);
    expect(outlives('full:2026-03-07', 'full:2026-03-07')).toBe(false);
    expect(outlives('full:2026-03-06', 'full:2026-03-07')).toBe(false);
    expect(outlives('full:2026-03-08', null)).toBe(false);
    expect(outlives(null, null)).toBe(false);
  });
});
