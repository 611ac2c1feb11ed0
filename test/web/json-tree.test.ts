import { describe, expect, it } from 'vitest';
import { ITEM_CAP, STRING_CAP, jsonTree } from '../../src/web/pages/json-tree.js';

const indicesShown = (markup: string): number[] =>
  [...markup.matchAll(/<span class="ji">(\d+)<\/span>/g)].map((match) => Number(match[1]));

describe('jsonTree', () => {
  it('draws every entry of a list up to the cap', () => {
    const markup = jsonTree(Array.from({ length: ITEM_CAP }, (_, at) => at)).markup;
    expect(indicesShown(markup)).toEqual(Array.from({ length: ITEM_CAP }, (_, at) => at));
    expect(markup).not.toContain('not shown');
  });

  it("draws a long list's first and last entries by their own indices, and counts those between", () => {
    const length = ITEM_CAP * 40 + 7;
    const markup = jsonTree(Array.from({ length }, (_, at) => `message ${at}`)).markup;
    const shown = indicesShown(markup);
    expect(shown).toEqual([
      ...Array.from({ length: ITEM_CAP / 2 }, (_, at) => at),
      ...Array.from({ length: ITEM_CAP / 2 }, (_, at) => length - ITEM_CAP / 2 + at),
    ]);
    expect(markup).toContain(`… ${length - ITEM_CAP} items not shown`);
    expect(markup).toContain(`${length} items`);
  });

  it("cuts an object's fields the same way", () => {
    const wide = Object.fromEntries(Array.from({ length: ITEM_CAP + 1 }, (_, at) => [`field${at}`, at]));
    expect(jsonTree(wide).markup).toContain('… 1 fields not shown');
  });

  it('shows the start of a long string and how much it left out, escaped', () => {
    const text = `<b>${'x'.repeat(STRING_CAP * 2)}`;
    const markup = jsonTree({ text }).markup;
    expect(markup).toContain('&quot;&lt;b&gt;xxx');
    expect(markup).not.toContain('<b>');
    expect(markup).toContain(`… ${text.length - STRING_CAP} more characters not shown`);
  });

  it('opens the levels asked for and folds the rest', () => {
    const markup = jsonTree({ a: { b: { c: 1 } } }, { openDepth: 2 }).markup;
    expect(markup.match(/<details open>/g)).toHaveLength(2);
    expect(markup.match(/<details >/g)).toHaveLength(1);
  });
});
