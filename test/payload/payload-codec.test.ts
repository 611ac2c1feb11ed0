import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/json/index.js';
import { canonicalJson } from '../../src/json/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { EXTERNALIZE_AT_BYTES, decodePayloads, encodePayload } from '../../src/payload/index.js';

async function roundTrip(values: readonly JsonValue[]): Promise<{
  decoded: JsonValue[];
  blobs: Map<string, string>;
  texts: string[];
}> {
  const blobs = new Map<string, string>();
  const texts = values.map((value) => encodePayload(value, blobs));
  const decoded = await decodePayloads(texts, (digests) =>
    Promise.resolve(new Map(digests.filter((d) => blobs.has(d)).map((d) => [d, blobs.get(d)!]))),
  );
  return { decoded, blobs, texts };
}

const big = (label: string) => ({ label, text: 'z'.repeat(EXTERNALIZE_AT_BYTES) });

describe('payload encoding', () => {
  it('round-trips any JSON value exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue({ maxDepth: 6 }), { maxLength: 4 }), async (values) => {
        const { decoded } = await roundTrip(values as JsonValue[]);
        expect(decoded.map((value) => canonicalJson(value))).toEqual(
          values.map((value) => canonicalJson(value as JsonValue)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('keeps small values inline and moves large subtrees into blobs', async () => {
    // Not `small`: a key String's deprecated small() also has, which a JsonValue's string side brings along.
    const { texts, blobs } = await roundTrip([{ inline: [1, 2] }, { wrapper: big('a') }]);
    expect(texts[0]).toBe('{"inline":[1,2]}');
    expect(texts[1]).toMatch(/^\{"wrapper":\{"\$blob":"[0-9a-f]{32}"\}\}$/);
    expect(blobs.size).toBe(1);
  });

  it('stores a subtree shared by several payloads once', async () => {
    const output = big('tool output');
    const { blobs, decoded } = await roundTrip([
      output,
      { role: 'user', content: [{ type: 'tool_result', content: output }] },
    ]);
    const bodies = [...blobs.values()];
    expect(bodies.filter((body) => body.includes('tool output'))).toHaveLength(1);
    expect(decoded[1]).toEqual({ role: 'user', content: [{ type: 'tool_result', content: output }] });
  });

  it('keeps user objects that look like references as they are', async () => {
    const tricky: JsonValue[] = [
      { $blob: 'not-a-digest' },
      { $tree: 'x' },
      { $literal: { $blob: 'y' } },
      { deep: { $blob: big('q').text } },
    ];
    expect((await roundTrip(tricky)).decoded).toEqual(tricky);
  });

  it('returns fresh objects on every decode', async () => {
    const blobs = new Map<string, string>();
    const text = encodePayload({ a: big('fresh') }, blobs);
    const read = (digests: readonly string[]) => Promise.resolve(new Map(digests.map((d) => [d, blobs.get(d)!])));
    const [first] = (await decodePayloads([text], read)) as [{ a: { label: string } }];
    first.a.label = 'mutated';
    const [second] = (await decodePayloads([text], read)) as [{ a: { label: string } }];
    expect(second.a.label).toBe('fresh');
  });

  it('reads blobs in one call per level of nesting', async () => {
    const blobs = new Map<string, string>();
    const flat = [
      encodePayload({ a: big('1') }, blobs),
      encodePayload({ b: big('2') }, blobs),
      encodePayload(big('3'), blobs),
    ];
    // A large object holding a large child is a tree blob: its child is a second level.
    const nested = encodePayload({ child: big('4'), padding: 'p'.repeat(EXTERNALIZE_AT_BYTES) }, blobs);
    expect(nested).toMatch(/^\{"\$tree":/);
    const countReads = async (texts: string[]): Promise<number> => {
      let reads = 0;
      await decodePayloads(texts, (digests) => {
        reads++;
        return Promise.resolve(new Map(digests.map((d) => [d, blobs.get(d)!])));
      });
      return reads;
    };
    expect(await countReads(flat)).toBe(1);
    expect(await countReads([...flat, nested])).toBe(2);
  });

  it('reports a missing blob as a corrupt store', async () => {
    const blobs = new Map<string, string>();
    const text = encodePayload(big('gone'), blobs);
    try {
      await decodePayloads([text], () => Promise.resolve(new Map()));
      expect.unreachable();
    } catch (error) {
      expect(isForkpointError(error, 'STORE_CORRUPT')).toBe(true);
    }
  });
});

describe('encoding a frozen value', () => {
  it('gives the same text and fills every sink with its blobs, however often it is encoded', async () => {
    const { deepFreeze } = await import('../../src/json/index.js');
    const value = deepFreeze({ big: 'x'.repeat(300), nested: { also: 'y'.repeat(300) } });
    const first = new Map<string, string>();
    const second = new Map<string, string>();
    const text = encodePayload(value, first);
    expect(encodePayload(value, second)).toBe(text);
    expect([...second]).toEqual([...first]);
    expect(first.size).toBe(2);
    expect(encodePayload(structuredClone(value) as JsonValue, new Map())).toBe(text);
  });
});

describe('a payload batch', () => {
  // A getter counts how often the encoder walks into the subtree that holds it.
  function countingOutput(): { output: JsonValue; reads: () => number } {
    let reads = 0;
    const output = { label: 'tool output' } as Record<string, JsonValue>;
    Object.defineProperty(output, 'text', { enumerable: true, get: () => (reads++, 'z'.repeat(EXTERNALIZE_AT_BYTES)) });
    return { output, reads: () => reads };
  }

  it('serializes a subtree its payloads share once, and encodes each payload as encodePayload does', async () => {
    const { PayloadBatch } = await import('../../src/payload/index.js');
    const { output, reads } = countingOutput();
    const message: JsonValue = { role: 'user', content: [{ type: 'tool_result', content: output }] };
    const batch = new PayloadBatch();
    const texts = [batch.encode(output), batch.encode(message)];
    expect(reads()).toBe(1);

    const plain = new Map<string, string>();
    expect(texts).toEqual([encodePayload(output, plain), encodePayload(message, plain)]);
    expect(reads()).toBe(3);
    expect([...batch.blobs]).toEqual([...plain]);
  });

  it('hands out the canonical text of each subtree it stored whole, and of nothing else', async () => {
    const { PayloadBatch } = await import('../../src/payload/index.js');
    const output = {
      label: 'out',
      text: 'é\ud83d'.repeat(EXTERNALIZE_AT_BYTES),
      nested: { b: 2, a: [1, null, 'x'] },
    } as JsonValue;
    const holder = { items: [big('one'), big('two')] } as JsonValue;
    const lookalike = { $blob: 'z'.repeat(EXTERNALIZE_AT_BYTES) } as JsonValue;
    const small = { n: 1 };
    const batch = new PayloadBatch();
    for (const value of [output, holder, lookalike, small]) batch.encode(value);
    expect(batch.canonicalTextOf(output as object)).toBe(canonicalJson(output));
    // Its text refers to the blobs of its items; a literal wrapper is not the value's own text; a small value is not stored.
    expect(batch.canonicalTextOf(holder as object)).toBeUndefined();
    expect(batch.canonicalTextOf(lookalike as object)).toBeUndefined();
    expect(batch.canonicalTextOf(small)).toBeUndefined();
    const message = { role: 'user', content: [{ type: 'tool_result', content: output }] } as JsonValue;
    expect(canonicalJson(message, batch.canonicalTextOf)).toBe(canonicalJson(message));
  });

  it('keeps a small shared subtree inline in each payload', async () => {
    const { PayloadBatch } = await import('../../src/payload/index.js');
    const small = { n: 1 };
    const batch = new PayloadBatch();
    expect([batch.encode(small), batch.encode({ again: small })]).toEqual(['{"n":1}', '{"again":{"n":1}}']);
    expect(batch.blobs.size).toBe(0);
  });
});
