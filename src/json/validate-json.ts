import { ForkpointError } from '../errors/index.js';
import type { ErrorCode } from '../errors/index.js';
import type { JsonValue } from './json-value.js';

/**
 * The deepest nesting forkpoint accepts in any JSON input. Far beyond any real
 * request; low enough that JSON.stringify (which recurses) can never overflow.
 */
export const MAX_JSON_DEPTH = 200;

/**
 * Checks that `value` is plain JSON that hashes unambiguously: no `undefined`,
 * `NaN`/`Infinity`, `BigInt`, `Date`, `Map`, `Set`, class instances or cycles,
 * and nesting no deeper than {@link MAX_JSON_DEPTH}. fast-json-stable-stringify
 * would silently collapse each of those onto another value, so two different
 * requests could share a hash.
 *
 * The walk is iterative so that a hostile depth cannot overflow the stack.
 */
export function assertJsonValue(
  value: unknown,
  what: string,
  code: ErrorCode = 'INPUT_INVALID',
): asserts value is JsonValue {
  type Frame = { node: unknown; path: string; depth: number } | { leave: object };
  const stack: Frame[] = [{ node: value, path: '$', depth: 0 }];
  const ancestors = new Set<object>();
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    if ('leave' in frame) {
      ancestors.delete(frame.leave);
      continue;
    }
    const { node, path, depth } = frame;
    const problem = describeProblem(node, depth);
    if (problem !== undefined) throw new ForkpointError(code, `${what} is not plain JSON at ${path}: ${problem}`);
    if (typeof node !== 'object' || node === null) continue;
    if (ancestors.has(node)) throw new ForkpointError(code, `${what} is not plain JSON at ${path}: it contains itself`);
    ancestors.add(node);
    stack.push({ leave: node });
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], path: `${path}[${i}]`, depth: depth + 1 });
    } else {
      for (const [key, child] of Object.entries(node).reverse())
        stack.push({ node: child, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
}

function describeProblem(node: unknown, depth: number): string | undefined {
  if (depth > MAX_JSON_DEPTH) return `nested deeper than ${MAX_JSON_DEPTH} levels`;
  switch (typeof node) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(node) ? undefined : `${String(node)} is not a JSON number`;
    case 'undefined':
      return 'undefined has no JSON form';
    case 'bigint':
      return 'a BigInt has no JSON form';
    case 'function':
    case 'symbol':
      return `a ${typeof node} has no JSON form`;
    case 'object': {
      if (node === null || Array.isArray(node)) return undefined;
      const prototype: unknown = Object.getPrototypeOf(node);
      if (prototype === Object.prototype || prototype === null) return undefined;
      const name = (node as { constructor?: { name?: string } }).constructor?.name ?? 'an object with a prototype';
      return `a ${name} is not a plain object`;
    }
  }
}

/**
 * Parses JSON text from outside the process (a cassette file, a CLI flag) and
 * checks it with {@link assertJsonValue}, so depth and shape are bounded
 * before anything else touches it.
 */
export function parseJsonInput(text: string, what: string, code: ErrorCode = 'INPUT_INVALID'): JsonValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // V8 quotes the text around the fault, raw line breaks and all: keep the message to one line.
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\r?\n/g, '\\n');
    throw new ForkpointError(code, `${what} is not valid JSON: ${reason}`, { cause: error });
  }
  // JSON.parse makes nothing but plain JSON, so depth is all there is to check; the full walk, which
  // builds a path for every node (most of the garbage of reading a cassette), only runs to say where.
  if (deeperThan(parsed, MAX_JSON_DEPTH)) assertJsonValue(parsed, what, code);
  return parsed as JsonValue;
}

// Whether any node of a parsed value is nested deeper than `limit`, without recursion.
function deeperThan(value: unknown, limit: number): boolean {
  const nodes: unknown[] = [value];
  const depths: number[] = [0];
  // Two stacks of one length, not one of pairs: a pair per node was most of this walk's garbage.
  for (let depth = depths.pop(); depth !== undefined; depth = depths.pop()) {
    const node = nodes.pop();
    if (depth > limit) return true;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const child of node as unknown[]) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    } else {
      for (const key in node) {
        nodes.push((node as Record<string, unknown>)[key]);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
