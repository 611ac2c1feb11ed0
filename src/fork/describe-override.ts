import type { FieldChange } from '../vocabulary/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';

const ABSENT = '(absent)';

/** One field change as an operation: `replace fields.damage_area_cm2.value 205 -> 2050`, `add notes "…"`, `remove notes`. */
export function describeChange(change: FieldChange): string {
  if (change.before === ABSENT) return `add ${change.path} ${change.after}`;
  if (change.after === ABSENT) return `remove ${change.path} ${change.before}`;
  return `replace ${change.path} ${change.before} -> ${change.after}`;
}

/**
 * An override in a few words: its kind (and `edit` when a recipe wrote it),
 * then what it changed at its step when the fork recorded that, as
 * `tool-patch (edit): replace fields.damage_area_cm2.value 205 -> 2050`; a
 * made-up tool failure by its message; otherwise what it holds, abbreviated.
 */
export function describeOverride(
  override: JsonValue | null,
  changes?: readonly JsonObject[] | null,
  limit = 3,
): string {
  if (!isJsonObject(override)) return 'override';
  const kind = typeof override.kind === 'string' ? override.kind : 'override';
  const label = override.via === 'edit' ? `${kind} (edit)` : kind;
  // A made-up failure replaces the whole result: its message says more than a diff against the output.
  if (kind === 'tool-error' && typeof override.message === 'string')
    return `${label} ${JSON.stringify(override.message)}`;
  const known = (changes ?? []).filter(isFieldChange);
  if (kind === 'approval') return approvalOverrideWords(override, known);
  if (known.length > 0) {
    const shown = known.slice(0, limit).map(describeChange);
    return `${label}: ${shown.join(', ')}${known.length > limit ? `, and ${known.length - limit} more` : ''}`;
  }
  const { kind: _kind, via: _via, ...rest } = override;
  const detail = JSON.stringify(
    rest.patch ??
      rest.output ??
      rest.operations ??
      rest.message ??
      rest.response ??
      rest.model ??
      rest.file ??
      rest.system ??
      '',
  );
  return `${label} ${detail.length > 60 ? `${detail.slice(0, 59)}…` : detail}`;
}

/**
 * A fork that answered an approval otherwise, as a person's other answer:
 * `approval answered otherwise: approved -> rejected, note "checked the invoice" -> "duplicate"`.
 * Where the fork recorded no changes (its full tier expired), the decision it gave.
 */
function approvalOverrideWords(override: JsonObject, changes: readonly FieldChange[]): string {
  const flipped = changes.find((change) => change.path === 'approved');
  const given = typeof override.approved === 'boolean' ? answerOf(String(override.approved)) : '?';
  const words = [flipped === undefined ? given : `${answerOf(flipped.before)} -> ${answerOf(flipped.after)}`];
  for (const change of changes)
    if (change.path !== 'approved') words.push(`${change.path} ${change.before} -> ${change.after}`);
  return `approval answered otherwise: ${words.join(', ')}`;
}

// The stored answer is a flag; a person reads it as the word it stands for.
const answerOf = (flag: string): string => (flag === 'true' ? 'approved' : flag === 'false' ? 'rejected' : flag);

function isFieldChange(value: JsonObject): value is JsonObject & FieldChange {
  return typeof value.path === 'string' && typeof value.before === 'string' && typeof value.after === 'string';
}
