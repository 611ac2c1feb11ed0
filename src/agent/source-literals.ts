// Transpilers print the same literal differently: 'a' or "a", é or \xE9, .55 or 0.55, 1_000 or 1e3.
// These functions write each literal in one form chosen by its value, so that only its value counts.

const SIMPLE_ESCAPES: { readonly [char: string]: string } = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/**
 * The value of the text between a string's or a template's delimiters, or
 * undefined when it holds an escape whose value is not certain (a legacy
 * octal escape such as `\1`, or a malformed one).
 */
export function cookedValue(raw: string): string | undefined {
  let cooked = '';
  for (let at = 0; at < raw.length;) {
    const char = raw[at] as string;
    if (char === '\r') {
      // A template reads a CRLF or a lone CR as LF (a string cannot hold either unescaped).
      cooked += '\n';
      at += raw[at + 1] === '\n' ? 2 : 1;
      continue;
    }
    if (char !== '\\') {
      cooked += char;
      at++;
      continue;
    }
    const next = raw[at + 1];
    if (next === undefined) return undefined;
    if (next === '\r' || next === '\n' || next === '\u2028' || next === '\u2029') {
      // A line continuation stands for nothing.
      at += next === '\r' && raw[at + 2] === '\n' ? 3 : 2;
      continue;
    }
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      cooked += simple;
      at += 2;
    } else if (next === '0' && !/\d/.test(raw[at + 2] ?? '')) {
      cooked += '\0';
      at += 2;
    } else if (/\d/.test(next)) {
      return undefined;
    } else if (next === 'x') {
      const hex = /^[\da-fA-F]{2}/.exec(raw.slice(at + 2))?.[0];
      if (hex === undefined) return undefined;
      cooked += String.fromCharCode(parseInt(hex, 16));
      at += 4;
    } else if (next === 'u') {
      const braced = /^\{([\da-fA-F]+)\}/.exec(raw.slice(at + 2));
      const plain = /^[\da-fA-F]{4}/.exec(raw.slice(at + 2));
      const code = braced?.[1] ?? plain?.[0];
      if (code === undefined || parseInt(code, 16) > 0x10ffff) return undefined;
      cooked += String.fromCodePoint(parseInt(code, 16));
      at += 2 + (braced?.[0] ?? code).length;
    } else {
      // Any other escaped character stands for itself: \' \" \\ \` \$ and the pointless \a.
      const point = raw.codePointAt(at + 1) as number;
      cooked += String.fromCodePoint(point);
      at += 1 + (point > 0xffff ? 2 : 1);
    }
  }
  return cooked;
}

/** A string literal (with its quotes) in one form: JSON's, double quotes. Unreadable escapes keep the text. */
export function canonicalString(literal: string): string {
  const cooked = cookedValue(literal.slice(1, -1));
  return cooked === undefined ? literal : JSON.stringify(cooked);
}

/**
 * The text of an untagged template piece, re-escaped from its value. A
 * tagged template's raw text is what its tag reads, so it is kept as written.
 */
export function canonicalTemplateText(raw: string): string {
  const cooked = cookedValue(raw);
  if (cooked === undefined) return raw;
  // JSON's escapes are all valid in a template; only ` and ${ need escaping besides.
  return JSON.stringify(cooked).slice(1, -1).replaceAll('`', '\\`').replaceAll('${', '\\${');
}

/**
 * A numeric literal in one form: its value as `String` writes it (`1000`,
 * `0.55`, `31`), a BigInt as its decimal digits and `n`. A legacy octal
 * literal (`017`) keeps its text: its value depends on the mode.
 */
export function canonicalNumber(literal: string): string {
  const digits = literal.replaceAll('_', '');
  if (/^0\d/.test(digits)) return literal;
  try {
    if (digits.endsWith('n')) return `${BigInt(digits.slice(0, -1)).toString()}n`;
  } catch {
    return literal;
  }
  const value = Number(digits);
  return Number.isNaN(value) ? literal : String(value);
}
