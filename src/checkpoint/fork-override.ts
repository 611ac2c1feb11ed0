import type { JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';

/**
 * The one thing a fork changes at its step. A tool override replaces (or
 * merge-patches, RFC 7386) the tool result of that step; a prompt or model
 * override changes the model request from that step on.
 */
export type ForkOverride =
  | { readonly kind: 'tool-result'; readonly output: JsonValue }
  | { readonly kind: 'tool-merge'; readonly patch: JsonValue }
  | { readonly kind: 'system-prompt'; readonly system: string; readonly file?: string }
  | { readonly kind: 'model'; readonly model: string };

/** The context fields a prompt or model override sets before the fork's first step. */
export interface ContextOverride {
  readonly system?: string;
  readonly model?: string;
}

/** The context change an override makes before its step, if it makes one (tool overrides do not). */
export function contextOverrideOf(override: ForkOverride | JsonValue | null): ContextOverride | undefined {
  if (!isJsonObject(override)) return undefined;
  if (override.kind === 'system-prompt' && typeof override.system === 'string') return { system: override.system };
  if (override.kind === 'model' && typeof override.model === 'string') return { model: override.model };
  return undefined;
}
