import {
  BLOCK_AFTER,
  CONTROL,
  NAME_PART,
  NAME_START,
  OPERATOR_WORDS,
  PUNCTUATORS,
  SPACE,
  readNumber,
} from './source-lexicon.js';

/** What a token of function source is. */
export type SourceTokenKind = 'name' | 'punct' | 'number' | 'string' | 'template' | 'regex';

/** Which piece of a template literal a `template` token is. */
export type TemplatePart = 'whole' | 'head' | 'middle' | 'tail';

/**
 * One token of a function's source text, as `tokenizeSource` reads it.
 * Whitespace and comments are not tokens.
 */
export interface SourceToken {
  readonly kind: SourceTokenKind;
  /**
   * The token's text as written. For a template piece, the raw text between
   * its delimiters (`` ` ``, `${`, `}`), without them.
   */
  readonly text: string;
  /** A line break stood between this token and the one before. */
  readonly newlineBefore: boolean;
  /** On `}`: it closes a statement block (of an `if`, `for`, `try`, a label...), not a function body or an object. */
  readonly closesBlock?: boolean;
  /** On a template piece: which piece it is. */
  readonly part?: TemplatePart;
  /** On a template piece: the template has a tag, so its raw text is what the tag reads. */
  readonly tagged?: boolean;
}

type Opener =
  | { readonly type: '(' | '['; readonly control: boolean; ternaries: number }
  | { readonly type: '{'; readonly brace: 'block' | 'function' | 'expression'; ternaries: number }
  | { readonly type: '${'; readonly tagged: boolean; ternaries: number };

/**
 * Splits the source text of a function (what `Function.prototype.toString`
 * gives) into tokens, dropping whitespace and comments.
 *
 * It reads the lexical grammar only, with the few facts of context the lexer
 * needs: whether a `/` starts a regular expression, where a template
 * substitution ends, and whether a `}` closes a statement block. It never
 * throws: text it cannot read (an unterminated string, say) becomes tokens
 * all the same, so a hash can always be taken.
 */
export function tokenizeSource(source: string): SourceToken[] {
  const tokens: SourceToken[] = [];
  // The root stands for the function expression itself: a colon there is a ternary's.
  const root: Opener = { type: '(', control: false, ternaries: 0 };
  const stack: Opener[] = [root];
  let at = 0;
  let newline = false;
  // The opener the last `)` closed, to tell `if (...) {` from `f(...) {`.
  let lastClosedParen: Opener | undefined;
  // The kind of brace the last `}` closed: a `/` after a block starts a regular expression.
  let lastClosedBrace: 'block' | 'function' | 'expression' | undefined;
  // Set on every `:`: true for a label's or a `case`'s colon, false for a ternary's or a property's.
  let lastColonStartsStatement = false;

  const push = (token: Omit<SourceToken, 'newlineBefore'>): void => {
    tokens.push({ ...token, newlineBefore: newline });
    newline = false;
  };
  const previous = (): SourceToken | undefined => tokens[tokens.length - 1];
  const top = (): Opener | undefined => stack[stack.length - 1];

  const regexAllowed = (): boolean => {
    const last = previous();
    if (last === undefined) return true;
    if (last.kind === 'name') return OPERATOR_WORDS.has(last.text);
    if (last.kind !== 'punct') return false;
    if (last.text === ']' || last.text === '++' || last.text === '--') return false;
    if (last.text === ')') return lastClosedParen?.type === '(' && lastClosedParen.control;
    if (last.text === '}') return last.closesBlock === true || lastClosedBrace === 'function';
    return true;
  };

  const braceKind = (): 'block' | 'function' | 'expression' => {
    const last = previous();
    if (last === undefined) return 'block';
    if (last.kind === 'name') return BLOCK_AFTER.has(last.text) ? 'block' : 'expression';
    if (last.kind !== 'punct') return 'expression';
    switch (last.text) {
      case '=>':
        return 'function';
      case ')':
        return lastClosedParen?.type === '(' && lastClosedParen.control ? 'block' : 'function';
      case ';':
      case '}':
        return 'block';
      case '{': {
        const open = top();
        return open?.type === '{' && open.brace !== 'expression' ? 'block' : 'expression';
      }
      case ':':
        return lastColonStartsStatement ? 'block' : 'expression';
      default:
        return 'expression';
    }
  };

  const isControlParen = (): boolean => {
    const last = previous();
    if (last?.kind !== 'name') return false;
    if (CONTROL.has(last.text)) return true;
    // `for await (`
    return last.text === 'await' && tokens[tokens.length - 2]?.text === 'for';
  };

  const isTagPosition = (): boolean => {
    const last = previous();
    if (last === undefined) return false;
    if (last.kind === 'name') return !OPERATOR_WORDS.has(last.text);
    if (last.kind === 'template') return last.part === 'whole' || last.part === 'tail';
    if (last.kind === 'punct') return last.text === ')' || last.text === ']';
    return last.kind === 'string' || last.kind === 'number';
  };

  // Reads template text from `at` up to its end or a substitution; returns whether a substitution follows.
  const readTemplateText = (): { raw: string; opensSubstitution: boolean } => {
    const start = at;
    while (at < source.length) {
      const char = source[at];
      if (char === '\\') at += 2;
      else if (char === '`') return { raw: source.slice(start, at++), opensSubstitution: false };
      else if (char === '$' && source[at + 1] === '{') {
        const raw = source.slice(start, at);
        at += 2;
        return { raw, opensSubstitution: true };
      } else at++;
    }
    return { raw: source.slice(start, Math.min(at, source.length)), opensSubstitution: false };
  };

  while (at < source.length) {
    const char = source[at] as string;
    if (SPACE.test(char)) {
      if (char === '\n' || char === '\r' || char === '\u2028' || char === '\u2029') newline = true;
      at++;
      continue;
    }
    if (char === '/' && source[at + 1] === '/') {
      while (at < source.length && !/[\n\r\u2028\u2029]/.test(source[at] as string)) at++;
      continue;
    }
    if (char === '/' && source[at + 1] === '*') {
      const end = source.indexOf('*/', at + 2);
      const stop = end === -1 ? source.length : end + 2;
      if (/[\n\r\u2028\u2029]/.test(source.slice(at, stop))) newline = true;
      at = stop;
      continue;
    }
    if (char === '"' || char === "'") {
      const start = at++;
      while (at < source.length && source[at] !== char && !/[\n\r]/.test(source[at] as string)) {
        // An escaped CRLF is one line continuation.
        at += source[at] !== '\\' ? 1 : source.startsWith('\r\n', at + 1) ? 3 : 2;
      }
      at++;
      push({ kind: 'string', text: source.slice(start, Math.min(at, source.length)) });
      continue;
    }
    if (char === '`') {
      const tagged = isTagPosition();
      at++;
      const { raw, opensSubstitution } = readTemplateText();
      push({ kind: 'template', text: raw, part: opensSubstitution ? 'head' : 'whole', tagged });
      if (opensSubstitution) stack.push({ type: '${', tagged, ternaries: 0 });
      continue;
    }
    if (/\d/.test(char) || (char === '.' && /\d/.test(source[at + 1] ?? ''))) {
      push({ kind: 'number', text: readNumber(source, at) });
      at += (tokens[tokens.length - 1] as SourceToken).text.length;
      continue;
    }
    if (NAME_START.test(char) && !SPACE.test(char)) {
      const start = at++;
      while (at < source.length && NAME_PART.test(source[at] as string) && !SPACE.test(source[at] as string)) at++;
      push({ kind: 'name', text: source.slice(start, at) });
      continue;
    }
    if (char === '/' && regexAllowed()) {
      const start = at++;
      let inClass = false;
      while (at < source.length && !/[\n\r]/.test(source[at] as string)) {
        const inner = source[at];
        if (inner === '\\') at++;
        else if (inner === '[') inClass = true;
        else if (inner === ']') inClass = false;
        else if (inner === '/' && !inClass) break;
        at++;
      }
      at++;
      while (at < source.length && NAME_PART.test(source[at] as string)) at++;
      push({ kind: 'regex', text: source.slice(start, Math.min(at, source.length)) });
      continue;
    }
    const punct =
      PUNCTUATORS.find(
        (candidate) => source.startsWith(candidate, at) && !(candidate === '?.' && /\d/.test(source[at + 2] ?? '')),
      ) ?? char;
    at += punct.length;
    if (punct === '(' || punct === '[') {
      stack.push({ type: punct, control: punct === '(' && isControlParen(), ternaries: 0 });
      push({ kind: 'punct', text: punct });
    } else if (punct === ')' || punct === ']') {
      const open = stack.length > 1 && top()?.type === (punct === ')' ? '(' : '[') ? stack.pop() : undefined;
      push({ kind: 'punct', text: punct });
      if (punct === ')') lastClosedParen = open;
    } else if (punct === '{') {
      const brace = braceKind();
      stack.push({ type: '{', brace, ternaries: 0 });
      push({ kind: 'punct', text: '{' });
    } else if (punct === '}') {
      const open = top();
      if (open?.type === '${') {
        stack.pop();
        const { raw, opensSubstitution } = readTemplateText();
        push({ kind: 'template', text: raw, part: opensSubstitution ? 'middle' : 'tail', tagged: open.tagged });
        if (opensSubstitution) stack.push(open);
      } else {
        if (open?.type === '{' && stack.length > 1) stack.pop();
        const brace = open?.type === '{' ? open.brace : 'expression';
        lastClosedBrace = brace;
        push({ kind: 'punct', text: '}', closesBlock: brace === 'block' });
      }
    } else {
      const open = top();
      if (punct === '?' && open !== undefined) open.ternaries++;
      // A colon with a ternary pending at its level is the ternary's; else a label's or case's in a block.
      if (punct === ':') {
        if (open !== undefined && open.ternaries > 0) {
          open.ternaries--;
          lastColonStartsStatement = false;
        } else {
          lastColonStartsStatement = open?.type === '{' && open.brace !== 'expression';
        }
      }
      push({ kind: 'punct', text: punct });
    }
  }
  return tokens;
}
