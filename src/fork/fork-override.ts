import type { ModelResponse } from '../conversation/index.js';
import type { JsonPatchOperation, JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';

/**
 * The one thing a fork changes at its step N.
 *
 * At a tool step, the tool result: replaced (`tool-result`), merge-patched
 * (`tool-merge`, RFC 7386), patched (`tool-patch`, RFC 6902), or made an error
 * (`tool-error`: what if the service had failed?). At a model step, the
 * response: replaced (`model-response`: what if the model had asked for the
 * policy first?) or patched (`model-patch`); or the request from that step
 * on: the system prompt (`system-prompt`) or the model (`model`). At an
 * approval step, the person's answer (`approval`: what if the reviewer had
 * rejected?), for the same call, by the same reviewer unless `by` says who.
 *
 * An edit recipe (`fork({ edit })`) is recorded as the patch it made, with
 * `via: 'edit'`, so that every fork says exactly what changed however it was
 * written.
 */
export type ForkOverride =
  | { readonly kind: 'tool-result'; readonly output: JsonValue }
  | { readonly kind: 'tool-merge'; readonly patch: JsonValue }
  | { readonly kind: 'tool-patch'; readonly operations: readonly JsonPatchOperation[]; readonly via?: 'edit' }
  | { readonly kind: 'tool-error'; readonly message: string }
  | { readonly kind: 'model-response'; readonly response: ModelResponse }
  | { readonly kind: 'model-patch'; readonly operations: readonly JsonPatchOperation[]; readonly via?: 'edit' }
  | { readonly kind: 'system-prompt'; readonly system: string; readonly file?: string }
  | { readonly kind: 'model'; readonly model: string }
  | {
      readonly kind: 'approval';
      /** The answer the fork gives instead: true lets the call be made, false rejects it. */
      readonly approved: boolean;
      readonly by?: string;
      readonly note?: string;
    };

/** Every override kind. */
export type ForkOverrideKind = ForkOverride['kind'];

/** The kinds that change a tool step's result. */
export const TOOL_OVERRIDE_KINDS: readonly ForkOverrideKind[] = [
  'tool-result',
  'tool-merge',
  'tool-patch',
  'tool-error',
];

/** The kinds that change a model step: its response, or its request from then on. */
export const MODEL_OVERRIDE_KINDS: readonly ForkOverrideKind[] = [
  'model-response',
  'model-patch',
  'system-prompt',
  'model',
];

/** The context fields a prompt or model override sets before the fork's first step. */
export interface ContextOverride {
  readonly system?: string;
  readonly model?: string;
}

/** The context change an override makes before its step, if it makes one (the others change a response). */
export function contextOverrideOf(override: ForkOverride | JsonValue | null): ContextOverride | undefined {
  // Stored overrides are read back as JSON: the fields are checked, not assumed.
  const value = override;
  if (!isJsonObject(value)) return undefined;
  if (value.kind === 'system-prompt' && typeof value.system === 'string') return { system: value.system };
  if (value.kind === 'model' && typeof value.model === 'string') return { model: value.model };
  return undefined;
}
