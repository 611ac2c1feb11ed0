import type { DivergenceSource } from './divergence-source.js';
import { DIVERGENCE_SOURCES } from './divergence-source.js';

/** One row of the first-divergence table: a source, how often it came first, and the runs behind it. */
export interface DivergenceRow<T> {
  readonly source: DivergenceSource;
  readonly count: number;
  /** `count` over every classified re-execution, from 0 to 1; 0 when there were none. */
  readonly share: number;
  readonly entries: readonly T[];
}

/** The first-divergence table: one row per source, every source listed even when it never came first. */
export interface DivergenceTable<T> {
  readonly rows: readonly DivergenceRow<T>[];
  /** Every classified re-execution: the sum of the rows' counts. */
  readonly total: number;
}

/**
 * Counts classified re-executions by source, in the order of
 * {@link DIVERGENCE_SOURCES}, keeping each row's entries in the order given.
 */
export function tallyDivergences<T extends { readonly source: DivergenceSource }>(
  entries: readonly T[],
): DivergenceTable<T> {
  const total = entries.length;
  const rows = DIVERGENCE_SOURCES.map((source) => {
    const mine = entries.filter((entry) => entry.source === source);
    return { source, count: mine.length, share: total === 0 ? 0 : mine.length / total, entries: mine };
  });
  return { rows, total };
}
