import { describe, expect, it } from 'vitest';
import {
  canonicalNumber,
  canonicalString,
  canonicalTemplateText,
  cookedValue,
} from '../../src/agent/source-literals.js';

describe('cookedValue', () => {
  it('reads every kind of escape', () => {
    expect(cookedValue('\\b\\f\\n\\r\\t\\v\\0')).toBe('\b\f\n\r\t\v\0');
    expect(cookedValue('\\x41\\u0042\\u{1F600}\\q\\\'\\"\\\\')).toBe('AB😀q\'"\\');
  });

  it('reads a line continuation as nothing, and a template line break as LF', () => {
    expect(cookedValue('a\\\nb\\\r\nc')).toBe('abc');
    expect(cookedValue('a\r\nb\rc')).toBe('a\nb\nc');
  });

  it('gives no value for legacy octal or malformed escapes', () => {
    for (const raw of ['\\1', '\\01', '\\8', '\\x4', '\\u12', '\\u{110000}', 'a\\'])
      expect(cookedValue(raw)).toBeUndefined();
  });
});

describe('canonical literals', () => {
  it('write a string as JSON does, or keep its text when its value is uncertain', () => {
    expect(canonicalString("'a\"b'")).toBe('"a\\"b"');
    expect(canonicalString("'\\1'")).toBe("'\\1'");
  });

  it('write template text that reads back to the same value', () => {
    expect(canonicalTemplateText('a\n`${b}\\${c}')).toBe('a\\n\\`\\${b}\\${c}');
  });

  it('write numbers by value, BigInts in decimal, and keep legacy octal as written', () => {
    expect(['.5', '5.', '1_000', '0xff', '0B11', '1e21', '0x10n', '017', '08'].map(canonicalNumber)).toEqual([
      '0.5',
      '5',
      '1000',
      '255',
      '3',
      '1e+21',
      '16n',
      '017',
      '08',
    ]);
  });
});
