import type { TierCatches } from './tier-catches.js';

/** A row as the notes need it: a name and its catches. */
type NamedCatches = TierCatches & { readonly name: string };

/**
 * What a reader of the table must know to trust it, worked out from the
 * results: cassettes the unmutated build already fails, replays that crashed,
 * and changed endings forkpoint did not call divergences.
 */
export function studyNotes(sanity: NamedCatches, rows: readonly NamedCatches[]): string[] {
  const notes: string[] = [];
  if (sanity.full.count > 0) {
    notes.push(
      `${sanity.name} itself is caught by strict replay on ${sanity.full.caseIds.join(', ')}: those cassettes are left out of every full count.`,
    );
  }
  if (sanity.structural.count + sanity.structuralEndingOnly.count > 0) {
    const ids = [...sanity.structural.caseIds, ...sanity.structuralEndingOnly.caseIds];
    notes.push(
      `${sanity.name} itself diverges from its own structural cassettes on ${ids.join(', ')} ` +
        '(in a structural replay its hooks see shaped tool results): those cassettes are left out of every structural count.',
    );
  }
  for (const row of rows) {
    const first = row.crashes[0];
    if (first !== undefined) {
      const cases = [...new Set(row.crashes.map((crash) => crash.caseId))];
      notes.push(
        `${row.name}: ${row.crashes.length} replays threw INTERNAL ("${first.message}") on ${cases.join(', ')}; counted in neither tier.`,
      );
    }
    if (row.structural.count === 0 && row.structuralEndingOnly.count > 0) {
      notes.push(
        `${row.name}: structural replays ended otherwise than the recording on ${row.structuralEndingOnly.caseIds.join(', ')}, ` +
          'but a changed ending is not a divergence, so the structural tier does not flag it.',
      );
    }
  }
  return notes;
}
