import type { MessageDigests } from '../cassette/index.js';
import { digestArray } from '../cassette/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';

/**
 * A model step's canonical request as its view shows it: the stored head's
 * fields, and `messages`, the digests of the conversation so far. `messages`
 * is sliced from the run's shared digest list when it is read, not when the
 * view is made: a run's views each copying their prefix cost O(length^2) to
 * read a run, and most readers (a fork, a summary, the text of `show`) never
 * look at them. It reads as a plain array, so JSON, spreads and deep equality
 * see the same value as before; each read makes a fresh copy.
 */
export function modelRequestView(head: JsonObject, digests: MessageDigests): JsonValue {
  return {
    // First, as the canonical form orders it.
    get messages(): string[] {
      return digestArray(digests);
    },
    ...head,
  };
}
