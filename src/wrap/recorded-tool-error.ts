import type { JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';

/**
 * What a wrapped tool throws when the answer it gives is an error: the one a
 * recording stored (its function threw then), or a fork's `tool-error`. The
 * loop catches it where it caught the original; `output` is what was stored.
 */
export class RecordedToolError extends Error {
  constructor(
    readonly tool: string,
    readonly output: JsonValue,
  ) {
    super(messageOf(output));
    this.name = 'RecordedToolError';
  }
}

function messageOf(output: JsonValue): string {
  if (isJsonObject(output) && typeof output.error === 'string') return output.error;
  return typeof output === 'string' ? output : JSON.stringify(output);
}
