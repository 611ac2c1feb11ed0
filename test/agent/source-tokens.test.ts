import { describe, expect, it } from 'vitest';
import { tokenizeSource } from '../../src/agent/source-tokens.js';

const texts = (source: string): string[] => tokenizeSource(source).map((token) => `${token.kind}:${token.text}`);

describe('tokenizeSource', () => {
  it('drops whitespace and both kinds of comment, and notes line breaks', () => {
    const tokens = tokenizeSource('a /* x\n */ + // y\n b');
    expect(tokens.map((token) => token.text)).toEqual(['a', '+', 'b']);
    expect(tokens.map((token) => token.newlineBefore)).toEqual([false, true, true]);
  });

  it('reads the longest punctuator, and ?. before a digit as a ternary', () => {
    expect(texts('a>>>=b?.c??d')).toEqual([
      'name:a',
      'punct:>>>=',
      'name:b',
      'punct:?.',
      'name:c',
      'punct:??',
      'name:d',
    ]);
    expect(texts('a?.5:1')).toEqual(['name:a', 'punct:?', 'number:.5', 'punct::', 'number:1']);
  });

  it('reads a number up to where a member access starts', () => {
    expect(texts('1..toString()')).toEqual(['number:1.', 'punct:.', 'name:toString', 'punct:(', 'punct:)']);
    expect(texts('0x1Fn 1_0e-3')).toEqual(['number:0x1Fn', 'number:1_0e-3']);
  });

  it('splits a template into pieces around its substitutions, nested templates and braces included', () => {
    const tokens = tokenizeSource('`a${ {b: `c${d}`} }e`');
    expect(tokens.map((token) => `${token.kind}:${token.part ?? ''}:${token.text}`)).toEqual([
      'template:head:a',
      'punct::{',
      'name::b',
      'punct:::',
      'template:head:c',
      'name::d',
      'template:tail:',
      'punct::}',
      'template:tail:e',
    ]);
  });

  it('marks a template after a tag as tagged, and one after an operator word as not', () => {
    expect(tokenizeSource('String.raw`x`')[3]?.tagged).toBe(true);
    expect(tokenizeSource('f()`x`')[3]?.tagged).toBe(true);
    expect(tokenizeSource('return `x`')[1]?.tagged).toBe(false);
  });

  it('marks the } of statement blocks, not of function bodies or objects', () => {
    const closes = (source: string): boolean[] =>
      tokenizeSource(source)
        .filter((token) => token.text === '}')
        .map((token) => token.closesBlock === true);
    expect(closes('() => { if (a) {} else {} for (;;) {} try {} catch {} finally {} }')).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(closes('() => { switch (a) { case 1: {} } l: {} x = a ? {} : {}; y = { k: {} } }')).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(closes('function f() { g(function () {}) }')).toEqual([false, false]);
  });

  it('tells a regular expression from a division by what stands before the slash', () => {
    expect(texts('a / b / c').filter((text) => text.startsWith('regex'))).toEqual([]);
    expect(texts('x = /[/]"/g')).toEqual(['name:x', 'punct:=', 'regex:/[/]"/g']);
    expect(texts('while (a) /x/.test(b)')[4]).toBe('regex:/x/');
    expect(texts('(a) / 2')[3]).toBe('punct:/');
  });
});
