import type { TierCatches } from './tier-catches.js';

/** How much of what full replay catches the structural tier catches too. */
export interface StudySummary {
  readonly mutants: number;
  /** Mutants some strict replay of a full cassette caught. */
  readonly caughtByFull: number;
  /** Of those, the mutants some structural replay caught (diverged) as well. */
  readonly caughtByBoth: number;
  /** caughtByBoth / caughtByFull, from 0 to 1 (0 when full caught nothing). */
  readonly share: number;
  /** Of the mutants full replay caught, those a structural replay diverged on or ended otherwise for. */
  readonly caughtByFullAndStructuralEnding: number;
  /** caughtByFullAndStructuralEnding / caughtByFull: the share were a changed ending flagged. */
  readonly shareCountingEndings: number;
  /** (mutant, case) pairs full replay caught, */
  readonly cassettesCaughtByFull: number;
  /** and of those, the pairs structural replay caught (diverged) too. */
  readonly cassettesCaughtByBoth: number;
  readonly cassetteShare: number;
}

/** Sums the rows of a study: mutants and (mutant, case) pairs caught by full replay, and the share structural replay caught of them. */
export function summarize(rows: readonly TierCatches[]): StudySummary {
  const byFull = rows.filter((row) => row.full.count > 0);
  const byBoth = byFull.filter((row) => row.structural.count > 0);
  const byEnding = byFull.filter((row) => row.structural.count + row.structuralEndingOnly.count > 0);
  const cassettesCaughtByFull = rows.reduce((sum, row) => sum + row.full.count, 0);
  const cassettesCaughtByBoth = rows.reduce((sum, row) => {
    const structural = new Set(row.structural.caseIds);
    return sum + row.full.caseIds.filter((id) => structural.has(id)).length;
  }, 0);
  return {
    mutants: rows.length,
    caughtByFull: byFull.length,
    caughtByBoth: byBoth.length,
    share: ratio(byBoth.length, byFull.length),
    caughtByFullAndStructuralEnding: byEnding.length,
    shareCountingEndings: ratio(byEnding.length, byFull.length),
    cassettesCaughtByFull,
    cassettesCaughtByBoth,
    cassetteShare: ratio(cassettesCaughtByBoth, cassettesCaughtByFull),
  };
}

const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);
