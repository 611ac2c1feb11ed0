import type { JsonValue } from './json-value.js';

/** Frozen subtrees whose canonical text is at least this long have it remembered. */
const REMEMBER_AT_CHARS = 256;

// A frozen value cannot change, so its text is computed once: a replay hashes the same frozen
// cassette responses, inside new messages, run after run. Nothing else is frozen by forkpoint.
const frozenTexts = new WeakMap<object, string>();

/**
 * Canonical texts a caller already has for some containers (a step's payload
 * batch has the text of every large tool output it stored), so that a value
 * holding them is not serialized a second time. Only for values that cannot
 * change meanwhile.
 */
export type KnownTexts = (container: object) => string | undefined;

/**
 * The canonical text of a JSON value: keys sorted by code unit, no whitespace;
 * exactly the text fast-json-stable-stringify gives (a property test holds the
 * two together). The request hasher's, on every step: it remembers the text of
 * frozen subtrees and takes texts a caller has already, which the package
 * cannot, and so digests a step's message in about a quarter of the package's
 * time (`npm run bench`, "canonical JSON"; on plain values the two are as
 * fast). Off that path, use `stableJson`, the package itself. Callers validate
 * first (see `assertJsonValue`): this function trusts its input, because it
 * sits on the per-step hot path.
 *
 * Lone surrogates come out escaped (`"\udc00"`), so the text is valid UTF-8
 * and survives a round trip through SQLite TEXT byte for byte.
 */
export function canonicalJson(value: JsonValue, known?: KnownTexts): string {
  // JSON.stringify gives a primitive the same text fast-json-stable-stringify does, without its checks.
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (!Object.isFrozen(value)) return known?.(value) ?? containerText(value, known);
  let text = frozenTexts.get(value);
  if (text === undefined) {
    text = containerText(value);
    if (text.length >= REMEMBER_AT_CHARS) frozenTexts.set(value, text);
  }
  return text;
}

function containerText(value: Exclude<JsonValue, string | number | boolean | null>, known?: KnownTexts): string {
  if (Array.isArray(value)) {
    const items = value as readonly JsonValue[];
    let text = '[';
    for (let i = 0; i < items.length; i++) text += (i === 0 ? '' : ',') + canonicalJson(items[i] ?? null, known);
    return `${text}]`;
  }
  const record = value as { readonly [key: string]: JsonValue | undefined };
  let text = '{';
  for (const key of Object.keys(record).sort()) {
    const field = record[key];
    // As fast-json-stable-stringify does: a field holding undefined is left out.
    if (field === undefined) continue;
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(field, known)}`;
  }
  return `${text}}`;
}
