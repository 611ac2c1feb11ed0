import type { CaughtCassettes, TierCatches } from './tier-catches.js';

/**
 * A mutant's catches without the cassettes the unmutated build already fails
 * in that tier: a replay that diverges with no bug planted says nothing about
 * the bug, so such a cassette counts for neither side (the usual rule of
 * mutation testing: a test that fails on the original kills nothing).
 */
export function withoutUnusable(catches: TierCatches, sanity: TierCatches): TierCatches {
  const structuralUnusable = [...sanity.structural.caseIds, ...sanity.structuralEndingOnly.caseIds];
  return {
    full: without(catches.full, sanity.full.caseIds),
    structural: without(catches.structural, structuralUnusable),
    structuralEndingOnly: without(catches.structuralEndingOnly, structuralUnusable),
    crashes: catches.crashes,
  };
}

function without(caught: CaughtCassettes, unusable: readonly string[]): CaughtCassettes {
  const skip = new Set(unusable);
  const caseIds = caught.caseIds.filter((id) => !skip.has(id));
  return { count: caseIds.length, caseIds };
}
