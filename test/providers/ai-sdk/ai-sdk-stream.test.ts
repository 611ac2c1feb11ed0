import type { LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../src/json/index.js';
import {
  revivedGenerateResult,
  revivedStreamParts,
  storedGenerateResult,
  storedStreamParts,
} from '../../../src/providers/ai-sdk/index.js';
import { thrown } from '../../support/thrown.js';

/** `value` through JSON text, as a store writes and reads it. */
const throughText = (value: JsonValue): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;
const roundTrip = (parts: readonly unknown[]): unknown[] => revivedStreamParts(throughText(storedStreamParts(parts)));

const timestamp = new Date('2026-03-09T10:11:12.345Z');
const bytes = new Uint8Array([0, 1, 2, 250, 255]);
const parts: LanguageModelV3StreamPart[] = [
  { type: 'stream-start', warnings: [{ type: 'unsupported', feature: 'topK' }] },
  { type: 'response-metadata', id: 'resp_1', timestamp, modelId: 'model-1' },
  { type: 'reasoning-start', id: '0' },
  { type: 'reasoning-delta', id: '0', delta: 'Think.' },
  { type: 'reasoning-delta', id: '0', delta: '', providerMetadata: { anthropic: { signature: 'sig' } } },
  { type: 'reasoning-end', id: '0' },
  { type: 'text-start', id: '1' },
  { type: 'text-delta', id: '1', delta: 'Hel' },
  { type: 'text-delta', id: '1', delta: 'lo' },
  { type: 'text-end', id: '1', providerMetadata: { anthropic: { citations: [] } } },
  { type: 'file', mediaType: 'image/png', data: bytes },
  { type: 'file', mediaType: 'image/png', data: 'AAEC+v8=' },
  { type: 'tool-input-start', id: 'call_1', toolName: 'lookup' },
  { type: 'tool-input-delta', id: 'call_1', delta: '{"key":"a"}' },
  { type: 'tool-input-end', id: 'call_1' },
  { type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', input: '{"key":"a"}' },
  // A raw chunk is whatever the provider sent, an object with the tag's own key included.
  { type: 'raw', rawValue: { $forkpoint: 'date', value: 'not a tag', nested: [{ $forkpoint: 1 }] } },
  {
    type: 'finish',
    usage: {
      inputTokens: { total: 10, noCache: 7, cacheRead: 3, cacheWrite: undefined },
      outputTokens: { total: 4, text: undefined, reasoning: undefined },
      raw: { input_tokens: 7 },
    },
    finishReason: { unified: 'stop', raw: undefined },
    providerMetadata: { anthropic: { score: -0 } },
  },
];

describe('storedStreamParts and revivedStreamParts', () => {
  it('give back parts equal to the stored ones, through JSON text', () => {
    expect(roundTrip(parts)).toStrictEqual(parts);
  });

  it("revive a response's timestamp as a Date and a file's bytes as a Uint8Array", () => {
    const [, metadata, , , , , , , , , file] = roundTrip(parts) as [unknown, { timestamp: unknown }, ...unknown[]];
    expect(metadata.timestamp).toBeInstanceOf(Date);
    expect((metadata.timestamp as Date).getTime()).toBe(timestamp.getTime());
    expect((file as { data: unknown }).data).toBeInstanceOf(Uint8Array);
    expect(Array.from((file as { data: Uint8Array }).data)).toEqual([0, 1, 2, 250, 255]);
  });

  it('keep a property set to undefined, and -0, which JSON text alone would lose', () => {
    const [finish] = roundTrip(parts.slice(-1)) as [{ finishReason: object; providerMetadata: { anthropic: object } }];
    expect(finish.finishReason).toHaveProperty('raw', undefined);
    expect(Object.is((finish.providerMetadata.anthropic as { score: number }).score, -0)).toBe(true);
  });

  it('store plain JSON as it is, so a recording reads as the parts it holds', () => {
    const plain = [{ type: 'text-delta', id: '1', delta: 'Hi' }];
    expect(storedStreamParts(plain)).toEqual(plain);
  });

  it('give back any parts of plain JSON, dates, bytes and undefined equal (property)', () => {
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue(),
        fc.constant(undefined),
        fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY),
        fc.date({ noInvalidDate: true }),
        fc.uint8Array({ maxLength: 8 }),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', '$forkpoint', 'value', 'type'), tie('value'), {
          maxKeys: 3,
          noNullPrototype: true,
        }),
      ),
    })).value;
    const part = fc.record({ type: fc.string(), payload: value }, { noNullPrototype: true });
    fc.assert(
      fc.property(fc.array(part, { maxLength: 4 }), (drawn) => {
        expect(roundTrip(drawn)).toStrictEqual(drawn);
      }),
    );
  });
});

describe('storedStreamParts: what it refuses, PROVIDER_UNMAPPED naming where', () => {
  class Custom {
    readonly field = 1;
  }
  const cyclic: Record<string, unknown> = { type: 'raw' };
  cyclic.rawValue = cyclic;
  it.each<[string, unknown, string]>([
    ["an error part's Error", { type: 'error', error: new Error('overloaded') }, 'parts[0].error'],
    ['a Map', { type: 'raw', rawValue: new Map() }, 'parts[0].rawValue'],
    ['a class instance', { type: 'raw', rawValue: [new Custom()] }, 'parts[0].rawValue[0]'],
    ['a Buffer, which would come back a Uint8Array', { type: 'file', data: Buffer.from('x') }, 'parts[0].data'],
    ['a function', { type: 'raw', rawValue: () => 1 }, 'parts[0].rawValue'],
    ['a BigInt', { type: 'raw', rawValue: 1n }, 'parts[0].rawValue'],
    ['an invalid Date', { type: 'response-metadata', timestamp: new Date(Number.NaN) }, 'parts[0].timestamp'],
    ['a cycle', cyclic, 'parts[0].rawValue'],
    ['symbol keys', { type: 'raw', rawValue: { [Symbol('s')]: 1 } }, 'parts[0].rawValue'],
    ['a part that is not an object with a type', 'text-delta', 'parts[0]'],
  ])('%s', (_name, part, field) => {
    const error = thrown(() => storedStreamParts([part]));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details.field).toBe(field);
  });
});

describe('revivedStreamParts: what it refuses, CASSETTE_INVALID naming where', () => {
  it.each<[string, JsonValue, string]>([
    ['not a list', { type: 'text-delta' }, 'parts'],
    ['a part with no type', [{ delta: 'x' }], 'parts[0]'],
    ['an unknown tag', [{ type: 'raw', rawValue: { $forkpoint: 'regexp', value: 'a+' } }], 'parts[0].rawValue'],
    ['a tag with other fields', [{ type: 'x', at: { $forkpoint: 'undefined', extra: 1 } }], 'parts[0].at'],
    ['a date that is no ISO date', [{ type: 'x', at: { $forkpoint: 'date', value: 'March 9' } }], 'parts[0].at'],
    ['bytes that are no base64', [{ type: 'x', data: { $forkpoint: 'bytes', value: 'no base64!' } }], 'parts[0].data'],
    ['a number tag of a plain number', [{ type: 'x', n: { $forkpoint: 'number', value: '5' } }], 'parts[0].n'],
  ])('%s', (_name, json, field) => {
    const error = thrown(() => revivedStreamParts(json));
    expect(error.code).toBe('CASSETTE_INVALID');
    expect(error.details.field).toBe(field);
  });
});

describe('storedGenerateResult and revivedGenerateResult', () => {
  const result: LanguageModelV3GenerateResult = {
    content: [
      { type: 'text', text: 'Hello' },
      { type: 'file', mediaType: 'image/png', data: bytes },
    ],
    finishReason: { unified: 'stop', raw: 'end_turn' },
    usage: {
      inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 2, text: 2, reasoning: undefined },
    },
    request: { body: { messages: ['the whole conversation'] } },
    response: {
      id: 'resp_1',
      timestamp,
      modelId: 'model-1',
      headers: { 'x-account': 'acct_secret' },
      body: { raw: 'answer' },
    },
    warnings: [],
  };

  it('leave out the request and the raw HTTP answer, and give back the rest equal', () => {
    const stored = storedGenerateResult(result);
    expect(JSON.stringify(stored)).not.toMatch(/whole conversation|acct_secret|"raw":"answer"/);
    const { request: _request, response, ...rest } = result;
    const { headers: _headers, body: _body, ...metadata } = response!;
    expect(revivedGenerateResult(throughText(stored))).toStrictEqual({ ...rest, response: metadata });
  });

  it('revive response.timestamp as a Date', () => {
    const revived = revivedGenerateResult(throughText(storedGenerateResult(result)));
    expect((revived.response as { timestamp: unknown }).timestamp).toEqual(timestamp);
    expect((revived.response as { timestamp: unknown }).timestamp).toBeInstanceOf(Date);
  });

  it('refuse a result that is not an object, or what cannot come back as it was', () => {
    expect(thrown(() => storedGenerateResult('text')).code).toBe('PROVIDER_UNMAPPED');
    const error = thrown(() => storedGenerateResult({ ...result, providerMetadata: { x: { map: new Map() } } }));
    expect([error.code, error.details.field]).toEqual(['PROVIDER_UNMAPPED', 'result.providerMetadata.x.map']);
    expect(thrown(() => revivedGenerateResult([1])).code).toBe('CASSETTE_INVALID');
  });
});
