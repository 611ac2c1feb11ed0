import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/json/index.js';
import { canonicalJson, sameJson } from '../../src/json/index.js';

// JSON as the wire carries it: fast-check's values include -0, which JSON text writes as 0.
const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as JsonValue);

describe('sameJson', () => {
  it('says two values are equal exactly when their canonical texts are', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(sameJson(a, b)).toBe(canonicalJson(a) === canonicalJson(b));
      }),
    );
  });

  it('finds a value equal to its copy, whatever the order of its keys', () => {
    fc.assert(
      fc.property(json, (value) => {
        const reordered = JSON.parse(canonicalJson(value)) as JsonValue;
        expect(sameJson(value, reordered)).toBe(true);
      }),
    );
  });

  it('tells apart what differs by one item, one key or one type', () => {
    expect(sameJson({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson('1', 1)).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
