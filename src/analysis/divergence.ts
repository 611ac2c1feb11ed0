import type { FieldChange } from './diff-json.js';

/**
 * How a replayed request relates to the recording:
 * - `changed`: the position was recorded, with another hash;
 * - `reordered`: the hash was recorded, at another position;
 * - `new-call`: neither;
 * - `dropped-call`: a recorded position the replay never asked for (not a miss).
 */
export type DivergenceClass = 'changed' | 'reordered' | 'new-call' | 'dropped-call';

/** One place where a replay left the recorded path. */
export interface Divergence {
  readonly classification: DivergenceClass;
  readonly step: number;
  readonly kind: string;
  readonly index: number;
  /** The hash the replay asked for; null for a dropped call. */
  readonly actualHash: string | null;
  /** The hashes recorded at this position (empty when none was). */
  readonly recordedHashes: readonly string[];
  /** The top-level request fields that differ (`system`, `messages[3]`). */
  readonly changed: readonly string[];
  /** Field by field, the recorded request against the replayed one. */
  readonly diff: readonly FieldChange[];
  /** One line, as the CLI prints it. */
  readonly message: string;
}

/** Writes a divergence's one-line message. */
export function describeDivergence(divergence: Omit<Divergence, 'message'>): string {
  const { kind, index, step, actualHash, recordedHashes, classification, changed } = divergence;
  const at = `${kind}#${index} (step ${step})`;
  if (classification === 'dropped-call') {
    return `${at}: recorded as ${recordedHashes[0] ?? '?'} but the replay never asked for it; dropped-call`;
  }
  const recorded = `recorded: [${recordedHashes.join(', ')}]`;
  const what =
    changed.length > 0
      ? `${classification}: ${changed.join(', ')}`
      : classification === 'changed'
        ? 'changed, in a part the cassette keeps only as a hash (a structural cassette keeps the system prompt, tools and message shapes that way)'
        : classification;
  return `${at}: request hash ${actualHash ?? '?'} not in cassette (${recorded}); ${what}`;
}
