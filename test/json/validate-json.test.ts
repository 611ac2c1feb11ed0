import fc from 'fast-check';
import stableStringify from 'fast-json-stable-stringify';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/json/index.js';
import { MAX_JSON_DEPTH, assertJsonValue, deepFreeze, parseJsonInput } from '../../src/json/index.js';
import { canonicalJson } from '../../src/json/index.js';
import { isForkpointError } from '../../src/errors/index.js';

const problemOf = (value: unknown): string | undefined => {
  try {
    assertJsonValue(value, 'the value');
    return undefined;
  } catch (error) {
    return isForkpointError(error, 'INPUT_INVALID') ? error.message : 'wrong error';
  }
};

describe('assertJsonValue', () => {
  it('accepts plain JSON, including lone surrogates and null-prototype objects', () => {
    expect(problemOf({ a: [1, 'x', null, true, { b: -0.5 }], c: '\ud83d' })).toBeUndefined();
    expect(problemOf(Object.assign(Object.create(null), { a: 1 }))).toBeUndefined();
  });

  it.each([
    ['undefined in an object', { a: undefined }, /\$\.a: undefined/],
    ['NaN', [1, NaN], /\$\[1\]: NaN/],
    ['Infinity', { n: Infinity }, /Infinity/],
    ['a BigInt', { n: 10n }, /BigInt/],
    ['a Date', { at: new Date(0) }, /Date is not a plain object/],
    ['a Map', { m: new Map() }, /Map/],
    ['a Set', new Set([1]), /Set/],
    ['a function', { f: () => 1 }, /function/],
  ])('rejects %s, naming where it is', (_name, value, pattern) => {
    expect(problemOf(value)).toMatch(pattern);
  });

  it('rejects a value that contains itself', () => {
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(problemOf(cyclic)).toMatch(/contains itself/);
  });

  it('accepts a shared (non-cyclic) object twice', () => {
    const shared = { x: 1 };
    expect(problemOf({ a: shared, b: [shared] })).toBeUndefined();
  });

  it('bounds nesting depth, even for input that JSON.parse accepts', () => {
    const deep = `${'['.repeat(4000)}${']'.repeat(4000)}`;
    expect(() => parseJsonInput(deep, 'a cassette', 'CASSETTE_INVALID')).toThrow(/nested deeper than/);
    const fine = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(() => parseJsonInput(fine, 'a cassette')).not.toThrow();
  });

  it('reports malformed JSON with the requested code', () => {
    try {
      parseJsonInput('{"a":', 'the tool result', 'USAGE');
      expect.unreachable();
    } catch (error) {
      expect(isForkpointError(error, 'USAGE')).toBe(true);
      expect((error as Error).message).toMatch(/the tool result is not valid JSON/);
    }
  });
});

describe('canonicalJson', () => {
  it('gives the text fast-json-stable-stringify gives, for plain and frozen values, however often it is asked', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const expected = stableStringify(value);
        expect(canonicalJson(value as JsonValue)).toBe(expected);
        const frozen = deepFreeze(structuredClone(value) as JsonValue);
        expect(canonicalJson(frozen)).toBe(expected);
        expect(canonicalJson({ wrapped: frozen })).toBe(`{"wrapped":${expected}}`);
      }),
      { numRuns: 500 },
    );
  });

  it('sorts keys at every level and escapes lone surrogates', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 0, y: 1 }], c: '\udc00' } })).toBe(
      '{"a":{"c":"\\udc00","d":[2,{"y":1,"z":0}]},"b":1}',
    );
  });
});
