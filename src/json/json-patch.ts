import { ForkpointError } from '../errors/index.js';
import type { ErrorCode } from '../errors/index.js';
import type { JsonValue } from './json-value.js';
import { isJsonArray, isJsonObject } from './json-value.js';

/** One operation of a JSON Patch (RFC 6902). */
export type JsonPatchOperation =
  | { readonly op: 'add' | 'replace' | 'test'; readonly path: string; readonly value: JsonValue }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'move' | 'copy'; readonly path: string; readonly from: string };

/** The operation names RFC 6902 defines. */
export const JSON_PATCH_OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const;

/** A JSON Pointer (RFC 6901) as its reference tokens: `/fields/a~1b` is `['fields', 'a/b']`, `''` the whole document. */
export function parseJsonPointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/'))
    throw new SyntaxError(`"${pointer}" is not a JSON Pointer: it must be empty or start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw new SyntaxError(`"${pointer}" has a "~" not followed by 0 or 1`);
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** Writes reference tokens as a JSON Pointer (RFC 6901). */
export function formatJsonPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((token) => `/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * Applies a JSON Patch (RFC 6902) to `document` and returns the result;
 * `document` is not modified. Operations apply in order, and the first that
 * cannot (a missing path, a failed `test`) throws a `ForkpointError` with
 * `code`, naming the operation: a patch applies whole or not at all.
 */
export function applyJsonPatch(
  document: JsonValue,
  operations: readonly JsonPatchOperation[],
  code: ErrorCode = 'INPUT_INVALID',
): JsonValue {
  let root: JsonValue = structuredClone(document);
  // An index loop, not forEach: a hole in the list is an operation that is not there, not one to skip.
  for (let position = 0; position < operations.length; position++) {
    const operation = operations[position];
    if (operation == null) throw new ForkpointError(code, `JSON Patch operation ${position} is missing`);
    root = applyOperation(root, operation, position, code);
  }
  return root;
}

// One operation over the document so far; returns the document after it (a new root for a root change).
function applyOperation(root: JsonValue, operation: JsonPatchOperation, position: number, code: ErrorCode): JsonValue {
  const fail = (problem: string): never => {
    throw new ForkpointError(code, `JSON Patch operation ${position} (${operation.op} ${operation.path}): ${problem}`);
  };
  const pointer = (text: string): string[] => {
    try {
      return parseJsonPointer(text);
    } catch (error) {
      return fail((error as Error).message);
    }
  };
  const tokens = pointer(operation.path);
  switch (operation.op) {
    case 'add':
      return put(root, tokens, structuredClone(operation.value), 'insert', fail);
    case 'replace':
      return put(root, tokens, structuredClone(operation.value), 'replace', fail);
    case 'remove':
      return remove(root, tokens, fail);
    case 'test':
      if (JSON.stringify(sorted(get(root, tokens, fail))) !== JSON.stringify(sorted(operation.value)))
        fail('the value there differs');
      return root;
    case 'move':
    case 'copy': {
      const from = pointer(operation.from);
      if (operation.op === 'move' && tokens.length > from.length && from.every((token, i) => tokens[i] === token))
        fail('a value cannot move into itself');
      const value = structuredClone(get(root, from, fail));
      const rest = operation.op === 'move' ? remove(root, from, fail) : root;
      return put(rest, tokens, value, 'insert', fail);
    }
  }
}

type Fail = (problem: string) => never;

function get(root: JsonValue, tokens: readonly string[], fail: Fail): JsonValue {
  let node = root;
  for (const token of tokens) node = child(node, token, fail);
  return node;
}

function child(node: JsonValue, token: string, fail: Fail): JsonValue {
  const value = isJsonArray(node)
    ? node[arrayIndex(token, node.length - 1, fail)]
    : isJsonObject(node) && Object.hasOwn(node, token)
      ? node[token]
      : undefined;
  // A null is a value there; only undefined is nothing.
  return value === undefined ? fail(`there is no "${token}" there`) : value;
}

function arrayIndex(token: string, max: number, fail: Fail): number {
  if (!/^(0|[1-9]\d*)$/.test(token)) return fail(`"${token}" is not an array index`);
  const index = Number(token);
  if (index > max) fail(`index ${index} is past the end of the array`);
  return index;
}

function put(
  root: JsonValue,
  tokens: readonly string[],
  value: JsonValue,
  mode: 'insert' | 'replace',
  fail: Fail,
): JsonValue {
  const last = tokens.at(-1);
  if (last === undefined) return value;
  const parent = get(root, tokens.slice(0, -1), fail);
  if (Array.isArray(parent)) {
    const items = parent as JsonValue[];
    if (mode === 'insert') items.splice(last === '-' ? items.length : arrayIndex(last, items.length, fail), 0, value);
    else items[arrayIndex(last, items.length - 1, fail)] = value;
    return root;
  }
  if (!isJsonObject(parent)) return fail('its parent is neither an object nor an array');
  if (mode === 'replace' && !Object.hasOwn(parent, last)) fail(`there is no "${last}" to replace`);
  // Defined, not assigned: an assignment would take a `__proto__` key for the object's prototype.
  Object.defineProperty(parent, last, { value, writable: true, enumerable: true, configurable: true });
  return root;
}

function remove(root: JsonValue, tokens: readonly string[], fail: Fail): JsonValue {
  const last = tokens.at(-1);
  if (last === undefined) return fail('the whole document cannot be removed');
  const parent = get(root, tokens.slice(0, -1), fail);
  if (Array.isArray(parent)) {
    (parent as JsonValue[]).splice(arrayIndex(last, parent.length - 1, fail), 1);
    return root;
  }
  if (!isJsonObject(parent) || !Object.hasOwn(parent, last)) return fail(`there is no "${last}" to remove`);
  // The document is a fresh clone, so the field is removed in place, as `put` defines one.
  Reflect.deleteProperty(parent, last);
  return root;
}

// `test` compares values, not key order.
function sorted(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => [key, sorted(item)]),
  );
}
