import type { ModelResponse } from '../conversation/index.js';
import { STOP_REASONS, isModelResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonPatchOperation, JsonValue } from '../json/index.js';
import { JSON_PATCH_OPS, assertJsonValue, parseJsonPointer } from '../json/index.js';
import type { ForkOverride, ForkOverrideKind } from './fork-override.js';

type FieldCheck = (value: unknown, where: string) => void;

/** Each kind's fields: required ones first, then optional ones marked `?`. */
const SCHEMA: Readonly<Record<ForkOverrideKind, Readonly<Record<string, FieldCheck>>>> = {
  'tool-result': { output: json },
  'tool-merge': { patch: json },
  'tool-patch': { operations: patchOperations, 'via?': via },
  'tool-error': { message: nonEmptyString },
  'model-response': { response: modelResponse },
  'model-patch': { operations: patchOperations, 'via?': via },
  'system-prompt': { system: string, 'file?': string },
  model: { model: nonEmptyString },
  approval: { approved: boolean, 'by?': nonEmptyString, 'note?': string },
};

const KINDS = Object.keys(SCHEMA) as ForkOverrideKind[];

/**
 * Checks an override against its schema at run time: JavaScript and JSON
 * callers have no compiler to help, and an override that does not say what
 * it means would make a fork that claims a change it never made. An unknown
 * kind, a missing, misspelt or extra field, or a value of the wrong type is
 * `OVERRIDE_INVALID` naming the field.
 */
export function parseForkOverride(value: unknown): ForkOverride {
  assertForkOverride(value);
  return value;
}

// Every field checked against the kind's schema, each problem named: after it, the value is an override.
function assertForkOverride(value: unknown): asserts value is ForkOverride {
  if (!isPlainObject(value))
    throw invalid(`an override must be an object with a "kind" (${KINDS.join(', ')}), got ${describe(value)}`);
  const kind = value.kind;
  if (typeof kind !== 'string' || !Object.hasOwn(SCHEMA, kind)) {
    const near = typeof kind === 'string' ? nearest(kind, KINDS) : undefined;
    throw invalid(
      `unknown override kind ${describe(kind)}${near === undefined ? '' : ` (did you mean "${near}"?)`}; the kinds are ${KINDS.join(', ')}`,
    );
  }
  const fields = SCHEMA[kind as ForkOverrideKind];
  const names = Object.keys(fields).map((name) => name.replace(/\?$/, ''));
  for (const key of Object.keys(value)) {
    if (key === 'kind' || names.includes(key)) continue;
    const near = nearest(key, names);
    throw invalid(
      `a ${kind} override has no field "${key}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; its fields are ${names.join(', ')}`,
    );
  }
  for (const [name, check] of Object.entries(fields)) {
    const optional = name.endsWith('?');
    const field = name.replace(/\?$/, '');
    if (!Object.hasOwn(value, field)) {
      if (optional) continue;
      throw invalid(`a ${kind} override needs field "${field}"`);
    }
    check(value[field], `${kind}.${field}`);
  }
}

function json(value: unknown, where: string): void {
  assertJsonValue(value, `override field ${where}`, 'OVERRIDE_INVALID');
}

function string(value: unknown, where: string): void {
  if (typeof value !== 'string') throw invalid(`override field ${where} must be a string, got ${describe(value)}`);
}

function nonEmptyString(value: unknown, where: string): void {
  string(value, where);
  if ((value as string).trim() === '') throw invalid(`override field ${where} must not be empty`);
}

function boolean(value: unknown, where: string): void {
  if (typeof value !== 'boolean')
    throw invalid(`override field ${where} must be true or false, got ${describe(value)}`);
}

function via(value: unknown, where: string): void {
  if (value !== 'edit')
    throw invalid(`override field ${where} can only be "edit" (a patch an edit recipe made), got ${describe(value)}`);
}

function modelResponse(value: unknown, where: string): void {
  json(value, where);
  if (!isModelResponse(value as JsonValue)) {
    throw invalid(
      `override field ${where} must be a model response: { id, model, content: [text | thinking | redacted_thinking | tool_use | provider parts], stopReason: ${STOP_REASONS.join(' | ')}, usage: { inputTokens, outputTokens } }`,
    );
  }
  const parts = (value as ModelResponse).content;
  if (parts.some((part) => part.type === 'tool_result'))
    throw invalid(`override field ${where}: a model response cannot hold tool_result parts`);
}

function patchOperations(value: unknown, where: string): void {
  if (!Array.isArray(value) || value.length === 0)
    throw invalid(
      `override field ${where} must be a non-empty list of JSON Patch operations (RFC 6902), got ${describe(value)}`,
    );
  // Every index, holes included: forEach would skip a hole, and the stored list would then hold a null.
  for (let i = 0; i < value.length; i++) checkOperation(value[i] as unknown, `${where}[${i}]`);
}

function checkOperation(operation: unknown, where: string): asserts operation is JsonPatchOperation {
  if (!isPlainObject(operation))
    throw invalid(`${where} must be a JSON Patch operation object, got ${describe(operation)}`);
  const { op } = operation;
  if (typeof op !== 'string' || !(JSON_PATCH_OPS as readonly string[]).includes(op)) {
    throw invalid(`${where}.op must be one of ${JSON_PATCH_OPS.join(', ')}, got ${describe(op)}`);
  }
  const allowed = ['op', 'path', ...(op === 'move' || op === 'copy' ? ['from'] : op === 'remove' ? [] : ['value'])];
  for (const key of Object.keys(operation))
    if (!allowed.includes(key)) throw invalid(`${where} (${op}) has no field "${key}"; it takes ${allowed.join(', ')}`);
  for (const key of allowed.filter((name) => name !== 'op')) {
    if (!Object.hasOwn(operation, key)) throw invalid(`${where} (${op}) needs field "${key}"`);
  }
  for (const key of ['path', 'from'] as const) {
    if (!Object.hasOwn(operation, key)) continue;
    const pointer = operation[key];
    if (typeof pointer !== 'string')
      throw invalid(
        `${where}.${key} must be a JSON Pointer string like "/fields/damage_area_cm2/value", got ${describe(pointer)}`,
      );
    try {
      parseJsonPointer(pointer);
    } catch (error) {
      throw invalid(`${where}.${key}: ${(error as Error).message}`);
    }
  }
  if (Object.hasOwn(operation, 'value')) json(operation.value, `${where}.value`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The candidate within two edits of `word`, if one is. */
function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > 64 || b.length > 64) return 3;
  // One row of the table at a time: row[j] is the distance from a's first i characters to b's first j. A
  // cell is the least of the one above, the one to the left and the diagonal one, each plus its edit.
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  let distance = b.length;
  for (let i = 1; i <= a.length; i++) {
    let diagonal = i - 1;
    let left = i;
    const next = [left];
    for (const [j, above] of row.slice(1).entries()) {
      left = Math.min(above + 1, left + 1, diagonal + (a[i - 1] === b[j] ? 0 : 1));
      next.push(left);
      diagonal = above;
    }
    row = next;
    distance = left;
  }
  return distance;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return 'a BigInt';
  try {
    const text = jsonOf(value) ?? (typeof value === 'symbol' ? value.toString() : 'a value that is not JSON');
    return text.length > 60 ? `${text.slice(0, 59)}…` : text;
  } catch {
    return 'a value that is not JSON';
  }
}

function invalid(message: string): ForkpointError {
  return new ForkpointError('OVERRIDE_INVALID', message);
}

// JSON.stringify's type leaves out the undefined it gives for a symbol or a `toJSON` that says nothing.
const jsonOf = (value: unknown): string | undefined => JSON.stringify(value);
