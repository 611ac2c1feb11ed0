import type { Divergence, DroppedCallFinding, MissFinding } from '../vocabulary/index.js';

/** A divergence before its message is written. */
export type UnwordedDivergence = Omit<MissFinding, 'message'> | Omit<DroppedCallFinding, 'message'>;

/** Writes a divergence's one-line message. */
export function describeDivergence(divergence: UnwordedDivergence): string {
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
  return `${at}: request hash ${actualHash} not in cassette (${recorded}); ${what}`;
}

/**
 * A divergence with its fields in the order the transport writes them
 * (`classification`, `step`, `kind`, `index`, `actualHash`, ...), whatever the
 * order of the one given (a stored finding comes back with its keys sorted):
 * what `--json` prints.
 */
export function inWritingOrder(divergence: Divergence): Divergence {
  const { step, kind, index, recordedHashes, changed, diff, message } = divergence;
  // One branch per class: each keeps its own pairing of classification and actualHash.
  return divergence.classification === 'dropped-call'
    ? {
        classification: divergence.classification,
        step,
        kind,
        index,
        actualHash: divergence.actualHash,
        recordedHashes,
        changed,
        diff,
        message,
      }
    : {
        classification: divergence.classification,
        step,
        kind,
        index,
        actualHash: divergence.actualHash,
        recordedHashes,
        changed,
        diff,
        message,
      };
}
