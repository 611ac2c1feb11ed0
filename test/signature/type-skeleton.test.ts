import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/index.js';
import { isJsonObject } from '../../src/index.js';
import { typeSkeleton } from '../../src/entries/analysis.js';

// JSON as the wire carries it: no -0, which JSON text writes as 0.
const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as JsonValue);

// The same structure with other values: strings and numbers changed, array elements repeated or dropped to one.
function revalued(value: JsonValue, salt: number): JsonValue {
  if (typeof value === 'string') return `${value}-${salt}`;
  if (typeof value === 'number') return value + salt + 0.5;
  if (value === null || typeof value === 'boolean') return value;
  if (!isJsonObject(value)) {
    const items = value.map((item) => revalued(item, salt));
    return salt % 2 === 0 ? [...items, ...items] : items;
  }
  const entries: Array<[string, JsonValue]> = Object.entries(value).map(([key, item]) => [key, revalued(item, salt)]);
  return Object.fromEntries(entries);
}

describe('the type skeleton of an observation', () => {
  it('ignores values, string lengths and how often an element repeats', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 1000 }), (value, salt) => {
        expect(typeSkeleton(revalued(value, salt))).toBe(typeSkeleton(value));
      }),
    );
  });

  it('tells apart another key, another type, and another element shape', () => {
    const claim = { claim_id: 'CLM-1', documents: [{ id: 'D1', pages: 2 }] };
    const base = typeSkeleton(claim);
    expect(typeSkeleton({ ...claim, amendment: { from: '2026-03-07' } })).not.toBe(base);
    expect(typeSkeleton({ ...claim, claim_id: 91077 })).not.toBe(base);
    expect(typeSkeleton({ ...claim, documents: [{ id: 'D1' }] })).not.toBe(base);
    expect(typeSkeleton({ documents: [{ pages: 9, id: 'X' }], claim_id: 'CLM-2' })).toBe(base);
  });

  it('writes keys as JSON strings, so that a key cannot pass for structure', () => {
    expect(typeSkeleton({ 'a:string,b': 1 })).not.toBe(typeSkeleton({ a: 'x', b: 1 }));
  });
});
