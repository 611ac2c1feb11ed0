import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/json/index.js';
import { applyMergePatch } from '../../src/json/index.js';

describe('applyMergePatch (RFC 7386)', () => {
  it('merges objects key by key, deletes on null, replaces anything else, and leaves the target as it was', () => {
    const target = { fields: { area: { value: 205, confidence: 0.38 }, text: 'x' }, tags: [1, 2] } as JsonValue;
    const patched = applyMergePatch(target, { fields: { area: { value: 2050 }, text: null }, tags: [3] });
    expect(patched).toEqual({ fields: { area: { value: 2050, confidence: 0.38 } }, tags: [3] });
    expect(target).toEqual({ fields: { area: { value: 205, confidence: 0.38 }, text: 'x' }, tags: [1, 2] });
  });

  it('keeps a `__proto__` key as a field of its own, as JSON.parse does, instead of setting the prototype', () => {
    const patch = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as JsonValue;
    const patched = applyMergePatch({ a: 0 }, patch) as Record<string, unknown>;
    expect(Object.keys(patched)).toEqual(['a', '__proto__']);
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
    expect(patched.polluted).toBeUndefined();
    expect(JSON.stringify(patched)).toBe('{"a":1,"__proto__":{"polluted":true}}');
  });
});
