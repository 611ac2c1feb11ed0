import { canonicalNumber, canonicalString, canonicalTemplateText } from './source-literals.js';
import { OPERATOR_WORDS } from './source-lexicon.js';
import { tokenizeSource } from './source-tokens.js';
import type { SourceToken } from './source-tokens.js';

// Words after which a line break ends the statement (the restricted productions), so a joined line would mean more.
const LINE_ENDS_STATEMENT = new Set(['return', 'break', 'continue', 'throw', 'yield']);
const VITE_IMPORT = /^__vite_ssr_import_\d+__$/;
// Names that are no plain binding: `(this)` or `(default)` are left alone.
const RESERVED = new Set([
  ...OPERATOR_WORDS,
  'this',
  'super',
  'import',
  'function',
  'class',
  'default',
  'let',
  'async',
]);

const isPunct = (token: SourceToken | undefined, text: string): boolean =>
  token?.kind === 'punct' && token.text === text;
const punct = (text: string): SourceToken => ({ kind: 'punct', text, newlineBefore: false });

/**
 * The source text of a function written in one form, so that the same source
 * gives the same text under tsc, tsx (esbuild) and vitest (vite, oxc).
 *
 * Measured on those three, it drops what they print differently and what
 * means nothing: whitespace and comments; quoting and escapes of string
 * literals, and escapes of untagged templates (`'a'`, `"a"`, `"\x61"`); the
 * spelling of numbers (`.55`, `0.55`; `1_000`, `1e3`); trailing commas; a `;`
 * before `}` and an empty statement after a block; parentheses around a lone
 * name or literal, such as an arrow's one parameter; `void 0` for `undefined`;
 * esbuild's `__name(fn, "name")` helper; vite's `(0, __vite_ssr_import_0__.f)`
 * for an imported `f`. It reads tokens, not a syntax tree: parentheses around
 * anything longer are kept as written, and an import used under another name
 * than its own (`import { f as g }`, `import * as m`) reads differently under
 * vite. A line break after `return`, `break`, `continue`, `throw` or `yield`
 * becomes a `;`, because there it ends the statement.
 *
 * @example
 * ```ts
 * normalizeSource("(x) => { return x === 'a'; }"); // 'x => { return x === "a" }'
 * normalizeSource('x=>{return x==="a"}');          // the same
 * ```
 */
export function normalizeSource(source: string): string {
  const tokens = unwrapNameHelpers(tokenizeSource(source));
  return render(
    dropOptionalPunctuation(dropGroupingParens(undefinedForVoidZero(inlineViteImports(endRestrictedLines(tokens))))),
  );
}

// `return\nx` returns undefined: the line break is a `;` there, and must not vanish with the whitespace.
function endRestrictedLines(tokens: readonly SourceToken[]): SourceToken[] {
  const out: SourceToken[] = [];
  tokens.forEach((token, i) => {
    const before = tokens[i - 1];
    const afterMember = isPunct(tokens[i - 2], '.') || isPunct(tokens[i - 2], '?.');
    if (token.newlineBefore && before?.kind === 'name' && LINE_ENDS_STATEMENT.has(before.text) && !afterMember) {
      if (!isPunct(token, ';') && !isPunct(token, '}')) out.push(punct(';'));
    }
    out.push(token);
  });
  return out;
}

// esbuild's keepNames (tsx sets it) wraps inner functions: `__name(fn, "f")` around an expression,
// `__name(f, "f");` after a declaration, `static { __name(this, "C") }` in a class.
function unwrapNameHelpers(tokens: readonly SourceToken[]): SourceToken[] {
  const out: SourceToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as SourceToken;
    const call =
      token.kind === 'name' && token.text === '__name' && isPunct(tokens[i + 1], '(')
        ? helperCall(tokens, i + 1)
        : undefined;
    if (call === undefined || isPunct(out[out.length - 1], '.')) {
      out.push(token);
      continue;
    }
    const last = out[out.length - 1];
    const atStatement = last === undefined || isPunct(last, ';') || isPunct(last, '{') || isPunct(last, '}');
    if (!atStatement || call.inner.length !== 1 || call.inner[0]?.kind !== 'name') {
      out.push(...unwrapNameHelpers(call.inner));
      i = call.end;
      continue;
    }
    // A statement of its own: drop it with its `;`, and with `static {` `}` when it is a class's static block.
    i = isPunct(tokens[call.end + 1], ';') ? call.end + 1 : call.end;
    if (
      call.inner[0].text === 'this' &&
      isPunct(out[out.length - 1], '{') &&
      out[out.length - 2]?.text === 'static' &&
      isPunct(tokens[i + 1], '}')
    ) {
      out.splice(out.length - 2, 2);
      i++;
    }
  }
  return out;
}

// The argument before `, "name")` of a call whose `(` is at `open`, and the index of its `)`.
function helperCall(tokens: readonly SourceToken[], open: number): { inner: SourceToken[]; end: number } | undefined {
  let depth = 0;
  let lastComma = -1;
  for (let i = open; i < tokens.length; i++) {
    const token = tokens[i] as SourceToken;
    if (token.kind === 'template' && (token.part === 'head' || token.part === 'tail'))
      depth += token.part === 'head' ? 1 : -1;
    if (token.kind !== 'punct') continue;
    if ('([{'.includes(token.text)) depth++;
    else if (')]}'.includes(token.text)) depth--;
    else if (token.text === ',' && depth === 1) lastComma = i;
    if (depth === 0) {
      const named = lastComma === i - 2 && tokens[i - 1]?.kind === 'string';
      return named ? { inner: tokens.slice(open + 1, lastComma), end: i } : undefined;
    }
  }
  return undefined;
}

// True when a `(` after this token groups an expression rather than calling, or opening a header or parameters.
function groupsAfter(token: SourceToken | undefined, before: SourceToken | undefined): boolean {
  if (token === undefined) return true;
  if (token.kind === 'name') return OPERATOR_WORDS.has(token.text);
  if (token.kind !== 'punct') return false;
  if (token.text === '}') return token.closesBlock === true;
  // `function* (x)` lists parameters.
  if (token.text === '*') return before?.text !== 'function';
  return ![')', ']', '?.', '++', '--'].includes(token.text);
}

// vite's SSR transform reads an import `f` as `__vite_ssr_import_0__.f`, and calls it as `(0, ...)(x)`.
function inlineViteImports(tokens: readonly SourceToken[]): SourceToken[] {
  const out: SourceToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as SourceToken;
    const member = (at: number): SourceToken | undefined => {
      const name = tokens[at + 2];
      const ok =
        VITE_IMPORT.test(tokens[at]?.text ?? '') &&
        isPunct(tokens[at + 1], '.') &&
        name?.kind === 'name' &&
        name.text !== 'default';
      return ok ? name : undefined;
    };
    const wrapped =
      isPunct(token, '(') && tokens[i + 1]?.text === '0' && isPunct(tokens[i + 2], ',') && isPunct(tokens[i + 6], ')')
        ? member(i + 3)
        : undefined;
    if (wrapped !== undefined && groupsAfter(out[out.length - 1], out[out.length - 2])) {
      out.push(wrapped);
      i += 6;
      continue;
    }
    const plain = token.kind === 'name' && !isPunct(out[out.length - 1], '.') ? member(i) : undefined;
    if (plain !== undefined) {
      out.push(plain);
      i += 2;
      continue;
    }
    out.push(token);
  }
  return out;
}

// esbuild writes `undefined` as `void 0`. Not where a member or call follows: `void 0[x]` is not `undefined[x]`.
function undefinedForVoidZero(tokens: readonly SourceToken[]): SourceToken[] {
  const out: SourceToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as SourceToken;
    const next = tokens[i + 2];
    const followed =
      next !== undefined &&
      (next.kind === 'template' || (next.kind === 'punct' && ['.', '?.', '[', '(', '**'].includes(next.text)));
    if (
      token.kind === 'name' &&
      token.text === 'void' &&
      tokens[i + 1]?.kind === 'number' &&
      tokens[i + 1]?.text === '0' &&
      !followed
    ) {
      out.push({ kind: 'name', text: 'undefined', newlineBefore: token.newlineBefore });
      i++;
      continue;
    }
    out.push(token);
  }
  return out;
}

// oxc and esbuild drop parentheses the grammar does not need; tsc keeps them. Only those around one name or
// literal are dropped here, and an arrow's single parameter `(x) =>`: anything longer needs precedence.
function dropGroupingParens(tokens: readonly SourceToken[]): SourceToken[] {
  const out: SourceToken[] = [];
  // Decided when the next token is known, since `(x) =>` drops them whatever stands before.
  const collapse = (next: SourceToken | undefined): void => {
    const [before, open, inner, close] = [
      out[out.length - 4],
      out[out.length - 3],
      out[out.length - 2],
      out[out.length - 1],
    ];
    if (!isPunct(open, '(') || !isPunct(close, ')') || inner === undefined) return;
    const name = inner.kind === 'name' && !RESERVED.has(inner.text);
    if (!name && inner.kind !== 'number' && inner.kind !== 'string') return;
    if (isPunct(next, '=>') ? name : groupsAfter(before, out[out.length - 5])) out.splice(out.length - 3, 3, inner);
  };
  for (const token of tokens) {
    collapse(token);
    out.push(token);
  }
  collapse(undefined);
  return out;
}

// A trailing comma, a `;` before `}` (ASI puts one there) and an empty statement after a block mean nothing.
function dropOptionalPunctuation(tokens: readonly SourceToken[]): SourceToken[] {
  const out: SourceToken[] = [];
  for (const token of tokens) {
    if (isPunct(token, ';') && out[out.length - 1]?.closesBlock === true) continue;
    if (isPunct(token, '}')) while (isPunct(out[out.length - 1], ';')) out.pop();
    // `[,]` and `[a,,]` hold holes: their last comma counts.
    const closes = isPunct(token, ')') || isPunct(token, ']') || isPunct(token, '}');
    if (
      closes &&
      isPunct(out[out.length - 1], ',') &&
      !isPunct(out[out.length - 2], ',') &&
      !isPunct(out[out.length - 2], '[')
    )
      out.pop();
    out.push(token);
  }
  return out;
}

function render(tokens: readonly SourceToken[]): string {
  return tokens.map(renderToken).join(' ');
}

function renderToken(token: SourceToken): string {
  switch (token.kind) {
    case 'string':
      return canonicalString(token.text);
    case 'number':
      return canonicalNumber(token.text);
    case 'template': {
      const text = token.tagged === true ? token.text : canonicalTemplateText(token.text);
      const open = token.part === 'whole' || token.part === 'head' ? '`' : '}';
      const close = token.part === 'whole' || token.part === 'tail' ? '`' : '${';
      return `${open}${text}${close}`;
    }
    default:
      return token.text;
  }
}
