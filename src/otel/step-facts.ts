import type { JsonValue } from '../json/index.js';
import type { Provenance } from '../vocabulary/index.js';

/**
 * What an export holds of a run's payloads: `reference` (the default: request
 * hashes and cassette keys, no content), `full` (the opt-in content attributes),
 * `expired` (the run's full tier has expired: no content can be had), or
 * `structural` (a run of the structural tier holds only shapes).
 */
export type PayloadState = 'reference' | 'full' | 'expired' | 'structural';

/** One step as the export reads it; its request and response are null where the run's payloads are gone. */
export interface StepFacts {
  readonly step: number;
  readonly kind: string;
  readonly index: number;
  readonly requestHash: string;
  /** Null where the store no longer says (an expired run's structural record keeps no provenance). */
  readonly provenance: Provenance | null;
  readonly request: JsonValue | null;
  readonly response: JsonValue | null;
}

/** The tool calls the last model step asked for, by name, in the order it listed them. */
export interface ToolCallQueue {
  /** Replaces the queue with a model step's tool calls. */
  asked(calls: readonly { readonly id: string; readonly name: string }[]): void;
  /** The id of the next call to `name` the model asked for, taken off the queue. */
  take(name: string): string | undefined;
}

/** Creates an empty {@link ToolCallQueue}. */
export function createToolCallQueue(): ToolCallQueue {
  let pending: { readonly id: string; readonly name: string }[] = [];
  return {
    asked(calls) {
      pending = [...calls];
    },
    take(name) {
      const at = pending.findIndex((call) => call.name === name);
      if (at < 0) return undefined;
      const [call] = pending.splice(at, 1);
      return call?.id;
    },
  };
}
