import { describe, expect, it } from 'vitest';
import { changedFields, diffJson } from '../../src/analysis/index.js';
import type { JsonValue } from '../../src/json/index.js';

describe('diffJson', () => {
  it('names each differing field by its path', () => {
    const before = { system: 'a', messages: [{ content: [{ text: 'x' }] }], params: { maxTokens: 1 } };
    const after = { system: 'a', messages: [{ content: [{ text: 'y' }] }], params: { maxTokens: 2, temperature: 0 } };
    expect(diffJson(before, after).map((change) => change.path)).toEqual([
      'messages[0].content[0].text',
      'params.maxTokens',
      'params.temperature',
    ]);
  });

  it('shows a long string around its first difference', () => {
    const prose = 'The assessor measured the damaged surface of the roof panel at ';
    const [change] = diffJson(
      { text: `${prose}205 cm2 after the fold.` },
      { text: `${prose}2050 cm2 after the fold.` },
    );
    expect(change?.before).toMatch(/^"\.\.\.[^"]+ at 205 cm2 after the fold\."$/);
    expect(change?.after).toMatch(/^"\.\.\.[^"]+ at 2050 cm2 after the fold\."$/);
    expect(change!.before.length).toBeLessThan(prose.length);
  });

  it('escapes what it shows, so a change stays on one line', () => {
    const [change] = diffJson({ system: 'Rules.' }, { system: 'Rules.\nCurrent time: 10:00' });
    expect(change?.after).toBe('"Rules.\\nCurrent time: 10:00"');
  });

  it('marks added and removed fields as absent on the other side', () => {
    expect(diffJson({ a: 1 }, { b: 2 })).toEqual([
      { path: 'a', before: '1', after: '(absent)' },
      { path: 'b', before: '(absent)', after: '2' },
    ]);
  });

  it('finds nothing between equal values and stops at the limit', () => {
    expect(diffJson({ a: [1, { b: 'c' }] }, { a: [1, { b: 'c' }] })).toEqual([]);
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    expect(diffJson(many, {}, 5)).toHaveLength(5);
  });

  it('sums a diff up by its top-level fields', () => {
    const changes = diffJson(
      { system: 'a', messages: [1, 2, { t: 'x' }] },
      { system: 'b', messages: [1, 2, { t: 'y' }] },
    );
    expect(changedFields(changes)).toEqual(['messages[2]', 'system']);
  });
});

describe('diffJson on keys named like Object members', () => {
  it('diffs a field named constructor, toString or __proto__ as a field, never as the prototype’s member', () => {
    const before = JSON.parse('{"a":1}') as JsonValue;
    const after = JSON.parse('{"a":1,"constructor":"x","toString":2,"__proto__":{"b":3}}') as JsonValue;
    expect(diffJson(before, after)).toEqual([
      { path: '__proto__', before: '(absent)', after: '{"b":3}' },
      { path: 'constructor', before: '(absent)', after: '"x"' },
      { path: 'toString', before: '(absent)', after: '2' },
    ]);
    expect(diffJson(after, before).map((change) => change.after)).toEqual(['(absent)', '(absent)', '(absent)']);
  });
});
