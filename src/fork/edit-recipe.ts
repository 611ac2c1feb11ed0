import type { Draft, Patch } from 'immer';
import { Immer, enablePatches } from 'immer';
import { ForkpointError } from '../errors/index.js';
import type { JsonPatchOperation, JsonValue } from '../json/index.js';
import { assertJsonValue, formatJsonPointer } from '../json/index.js';
import type { ForkOverride } from './fork-override.js';

/**
 * An edit recipe: changes a draft of step N's recorded tool output (or model
 * response) in place, as with immer's `produce`; it may also return a whole
 * new value instead. Type the draft with the shape you expect:
 * `edit: (draft: OcrResult) => { draft.fields.damage_area_cm2.value = 2050 }`.
 */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- immer's recipe contract: mutate, or return anew
export type ForkEdit<T = JsonValue> = (draft: Draft<T>) => void | T;

enablePatches();
// Auto-freeze off: freezing a large recorded value costs about 20 times the edit, and the result is
// only ever copied into a patch list.
const immer = new Immer({ autoFreeze: false });

/**
 * Runs an edit recipe over a recorded value and records what it did as the
 * override a fork stores: the JSON Patch (RFC 6902) immer's patches translate
 * to, marked `via: 'edit'`. So `tree`, `compare` and `show` print what the
 * edit changed, not the function that changed it.
 */
export function editOverride<T>(recorded: JsonValue, edit: ForkEdit<T>, at: 'tool' | 'model'): ForkOverride {
  let patches: Patch[];
  try {
    [, patches] = immer.produceWithPatches(structuredClone(recorded) as T, edit as (draft: Draft<T>) => void);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ForkpointError('OVERRIDE_INVALID', `the edit recipe threw: ${reason}`, { cause: error });
  }
  const operations = patches.map(toJsonPatch);
  if (operations.length === 0)
    throw new ForkpointError(
      'OVERRIDE_INVALID',
      'the edit recipe changed nothing in the recorded value: change the draft, or return a new value',
    );
  for (const operation of operations) {
    if ('value' in operation)
      assertJsonValue(operation.value, `the edited value at ${operation.path || '(root)'}`, 'OVERRIDE_INVALID');
  }
  return { kind: at === 'tool' ? 'tool-patch' : 'model-patch', operations, via: 'edit' };
}

function toJsonPatch(patch: Patch): JsonPatchOperation {
  const path = formatJsonPointer(patch.path);
  // immer's patches carry the value the draft holds; a copy keeps the override apart from the draft.
  return patch.op === 'remove'
    ? { op: 'remove', path }
    : { op: patch.op, path, value: structuredClone(patch.value) as JsonValue };
}
