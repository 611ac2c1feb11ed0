// The lexical facts of JavaScript the source tokenizer reads by: keywords, punctuators, names and numbers.

/**
 * Keywords after which an expression starts: a `/` there begins a regular
 * expression, a `(` groups rather than calls, a `` ` `` is no tag's template.
 */
export const OPERATOR_WORDS: ReadonlySet<string> = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
  'extends',
]);
/** Keywords whose parenthesised head is followed by a statement, not an expression. */
export const CONTROL = new Set(['if', 'for', 'while', 'with', 'switch', 'catch']);
/** Keywords a `{` after which opens a block. */
export const BLOCK_AFTER = new Set(['else', 'try', 'finally', 'do', 'catch', 'static']);
/** Every punctuator of more than one character, longest first: the first match is the longest one. */
export const PUNCTUATORS = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '**',
  '<<',
  '>>',
];
/** What starts, and what continues, a name (`#` starts a private one). */
export const NAME_START = /[A-Za-z_$#\u0080-\uffff]/;
export const NAME_PART = /[\w$\u0080-\uffff]/;
/** Whitespace between tokens. */
export const SPACE = /\s/;

/** A numeric literal from `at`: decimal with fraction and exponent, or 0x/0o/0b, each with `_` and an optional `n`. */
export function readNumber(source: string, at: number): string {
  const rest = source.slice(at);
  const match =
    /^0[xX][\da-fA-F_]*n?/.exec(rest) ??
    /^0[oObB][\d_]*n?/.exec(rest) ??
    /^(?:\d[\d_]*)?(?:\.[\d_]*)?(?:[eE][+-]?[\d_]+)?n?/.exec(rest);
  const text = match?.[0] ?? '';
  return text.length > 0 ? text : (rest[0] ?? '');
}
