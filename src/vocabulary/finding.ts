import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';

// Types, not interfaces, throughout: a type is assignable to `JsonValue`, so a finding is stored and
// printed as the plain JSON it is, with no cast on the way.

/** One field that differs between two JSON values, rendered for people. */
export type FieldChange = {
  /** Where, as `messages[3].content[0].text`. */
  readonly path: string;
  /** The old value, abbreviated around the change; `(absent)` when the field is new. */
  readonly before: string;
  /** The new value, abbreviated around the change; `(absent)` when the field is gone. */
  readonly after: string;
};

/**
 * How a replayed request relates to the recording:
 * - `changed`: the position was recorded, with another hash;
 * - `reordered`: the hash was recorded, at another position;
 * - `new-call`: neither;
 * - `dropped-call`: a recorded position the replay never asked for (not a miss).
 */
export type DivergenceClass = 'changed' | 'reordered' | 'new-call' | 'dropped-call';

/** What every divergence says, whatever its class. */
type DivergenceFacts = {
  readonly step: number;
  readonly kind: string;
  readonly index: number;
  /** The hashes recorded at this position (empty when none was). */
  readonly recordedHashes: readonly string[];
  /** The top-level request fields that differ (`system`, `messages[3]`). */
  readonly changed: readonly string[];
  /** Field by field, the recorded request against the replayed one. */
  readonly diff: readonly FieldChange[];
  /** One line, as the CLI prints it. */
  readonly message: string;
};

/** A request the cassette could not answer as asked: a miss. */
export type MissFinding = DivergenceFacts & {
  readonly classification: 'changed' | 'reordered' | 'new-call';
  /** The hash the replay asked for. */
  readonly actualHash: string;
};

/**
 * A recorded call the replay never asked for. Not a miss: a patched build may
 * rightly stop earlier, so strict mode does not raise on it.
 */
export type DroppedCallFinding = DivergenceFacts & {
  readonly classification: 'dropped-call';
  /** Nothing was asked. */
  readonly actualHash: null;
};

/** One place where a replay left the recorded path: a miss, or a dropped call. */
export type Divergence = MissFinding | DroppedCallFinding;

/**
 * A finding of a run whose full tier has expired, as its summary keeps it:
 * its shape only, like the structural tier (every string `a` repeated to its
 * length, its class included, numbers as their class and sign), so no
 * request text survives in it. The class's length still tells the classes
 * apart; the type says only that it is not a word any more.
 */
export type ShapedFinding = DivergenceFacts & {
  readonly classification: `a${string}`;
  readonly actualHash: string | null;
};

/**
 * What a run records on the way besides its steps: the divergences and
 * dropped calls a replay met, or, once its full tier has expired, their
 * shapes. Discriminated by `classification`. The JSON of a finding (a run's
 * `findings`, `--json` output) is exactly this object.
 */
export type Finding = Divergence | ShapedFinding;

const MISSES: ReadonlySet<string> = new Set<MissFinding['classification']>(['changed', 'reordered', 'new-call']);

/**
 * Whether a JSON value is a {@link Finding}: every field of one, of the type
 * its class gives it. For findings read back from stored text.
 */
export function isFinding(value: JsonValue): value is Finding {
  return isDivergence(value) || isShapedFinding(value);
}

/** Whether a JSON value is a {@link Divergence} (see {@link isFinding}). */
export function isDivergence(value: JsonValue): value is Divergence {
  if (!hasFacts(value)) return false;
  const { classification, actualHash } = value;
  if (typeof classification !== 'string') return false;
  return MISSES.has(classification)
    ? typeof actualHash === 'string'
    : classification === 'dropped-call' && actualHash === null;
}

/** Whether a JSON value is a {@link ShapedFinding} (see {@link isFinding}). */
export function isShapedFinding(value: JsonValue): value is ShapedFinding {
  if (!hasFacts(value)) return false;
  const { classification, actualHash } = value;
  return (
    typeof classification === 'string' &&
    /^a+$/.test(classification) &&
    (actualHash === null || typeof actualHash === 'string')
  );
}

function hasFacts(value: JsonValue): value is JsonObject & DivergenceFacts {
  if (!isJsonObject(value)) return false;
  const { step, kind, index, recordedHashes, changed, diff, message } = value;
  return (
    typeof step === 'number' &&
    typeof kind === 'string' &&
    typeof index === 'number' &&
    isStringList(recordedHashes) &&
    isStringList(changed) &&
    Array.isArray(diff) &&
    diff.every(isFieldChange) &&
    typeof message === 'string'
  );
}

function isStringList(value: JsonValue | undefined): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isFieldChange(value: JsonValue): value is FieldChange {
  return (
    isJsonObject(value) &&
    typeof value.path === 'string' &&
    typeof value.before === 'string' &&
    typeof value.after === 'string'
  );
}
