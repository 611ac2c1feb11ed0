import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonArray, isJsonObject } from '../json/index.js';
import type { FieldChange } from '../vocabulary/index.js';

const CONTEXT = 24;
const ABSENT = '(absent)';

/**
 * The fields that differ between `before` and `after`, depth first, at most
 * `limit` of them. Long strings are shown around the first difference, so
 * `"...read 205 cm2..." -> "...read 2050 cm2..."` fits on a line.
 */
export function diffJson(before: JsonValue | undefined, after: JsonValue | undefined, limit = 20): FieldChange[] {
  const changes: FieldChange[] = [];
  walk(before, after, '', changes, limit);
  return changes;
}

/** The top-level fields a diff touches: `system`, `messages[3]`, `fields.damage_area_cm2`. */
export function changedFields(changes: readonly FieldChange[]): string[] {
  const fields = changes.map((change) => /^[^.[]+(\[\d+\])?/.exec(change.path)?.[0] ?? change.path);
  return [...new Set(fields)];
}

function walk(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  path: string,
  out: FieldChange[],
  limit: number,
): void {
  if (out.length >= limit) return;
  if (isJsonArray(before) && isJsonArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i++)
      walk(before[i], after[i], `${path}[${i}]`, out, limit);
    return;
  }
  if (isJsonObject(before) && isJsonObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    // Own fields only: `before.constructor` on an object without one is Object's, not a field of the JSON.
    for (const key of keys)
      walk(ownField(before, key), ownField(after, key), path === '' ? key : `${path}.${key}`, out, limit);
    return;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  if (typeof before === 'string' && typeof after === 'string') {
    const [shownBefore, shownAfter] = aroundDifference(before, after);
    out.push({ path: path || '(root)', before: shownBefore, after: shownAfter });
    return;
  }
  out.push({ path: path || '(root)', before: render(before), after: render(after) });
}

const ownField = (object: JsonObject, key: string): JsonValue | undefined =>
  Object.hasOwn(object, key) ? object[key] : undefined;

function render(value: JsonValue | undefined): string {
  if (value === undefined) return ABSENT;
  const text = JSON.stringify(value);
  return text.length <= 2 * CONTEXT + 8 ? text : `${text.slice(0, 2 * CONTEXT)}...`;
}

/** Both strings cut to the region where they differ, with a little context. */
function aroundDifference(before: string, after: string): [string, string] {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  ) {
    suffix++;
  }
  const cut = (text: string): string => {
    const start = Math.max(0, prefix - CONTEXT);
    const end = Math.min(text.length, text.length - suffix + CONTEXT);
    const escaped = JSON.stringify(text.slice(start, end)).slice(1, -1);
    return `"${start > 0 ? '...' : ''}${escaped}${end < text.length ? '...' : ''}"`;
  };
  return [cut(before), cut(after)];
}
