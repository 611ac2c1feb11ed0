import { isMessagePart } from '../conversation/index.js';
import { ERROR_CODES } from '../errors/index.js';
import type { JsonValue } from '../json/index.js';
import { isJsonArray, isJsonObject } from '../json/index.js';
import type { AgentStateName } from '../machine/index.js';
import type { CheckpointDelta, FullCheckpoint, SkeletonContext } from './checkpoint-state.js';

// A checkpoint is read back from text: these say it holds what the writer wrote, field by field, so
// that a row changed outside forkpoint is STORE_CORRUPT rather than a machine restored into nonsense.

const STATES: ReadonlySet<JsonValue | undefined> = new Set<AgentStateName>([
  'awaitingModel',
  'awaitingTools',
  'awaitingApproval',
  'done',
  'failed',
]);
const CODES: ReadonlySet<JsonValue | undefined> = new Set(ERROR_CODES);

const isNumber = (value: JsonValue): boolean => typeof value === 'number';
const isString = (value: JsonValue): boolean => typeof value === 'string';
const partsOf =
  (type: 'tool_use' | 'tool_result') =>
  (value: JsonValue): boolean =>
    isJsonArray(value) && value.every((part) => isMessagePart(part) && part.type === type);

const FIELDS: { readonly [K in keyof SkeletonContext]-?: (value: JsonValue) => boolean } = {
  input: isJsonObject,
  system: isString,
  model: isString,
  pending: partsOf('tool_use'),
  results: partsOf('tool_result'),
  failedAttempts: isNumber,
  buildState: (value) => value === null || (isJsonObject(value) && isNumber(value.version ?? null) && 'value' in value),
  approved: (value) =>
    value === null || (isJsonObject(value) && isString(value.toolUseId ?? null) && isString(value.requestHash ?? null)),
  step: isNumber,
  calls: (value) => isJsonObject(value) && Object.values(value).every(isNumber),
  outcome: (value) => value === null || isJsonObject(value),
  error: (value) =>
    value === null ||
    (isJsonObject(value) && CODES.has(value.code) && isString(value.message ?? null) && isNumber(value.step ?? null)),
  messageCount: isNumber,
};
// Fields that came after the first machine version, or that only some builds' runs have.
const OPTIONAL: ReadonlySet<string> = new Set<keyof SkeletonContext>(['failedAttempts', 'approved', 'buildState']);

function isContext(value: JsonValue | undefined, partial: boolean): boolean {
  if (!isJsonObject(value)) return false;
  return Object.entries(FIELDS).every(([name, check]) => {
    const field = value[name];
    return field === undefined ? partial || OPTIONAL.has(name) : check(field);
  });
}

/** Whether a decoded checkpoint row is a full checkpoint, every context field of its type. */
export function isFullCheckpoint(value: JsonValue): value is FullCheckpoint & JsonValue {
  return (
    isJsonObject(value) &&
    typeof value.machineVersion === 'number' &&
    STATES.has(value.value) &&
    isContext(value.context, false)
  );
}

/** Whether a decoded checkpoint row is a delta: a state if it changed, and context fields of their types. */
export function isCheckpointDelta(value: JsonValue): value is CheckpointDelta & JsonValue {
  return (
    isJsonObject(value) &&
    (value.value === undefined || STATES.has(value.value)) &&
    (value.context === undefined || isContext(value.context, true))
  );
}
