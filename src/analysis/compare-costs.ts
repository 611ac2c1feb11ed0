import type { CostPart, RunCost } from '../pricing/index.js';

/** What one branch of a comparison cost, in US dollars (null: unknown, a model had no price, or not read). */
export interface BranchCost {
  /** What the run paid: its live model steps. */
  readonly paidUsd: number | null;
  /** What it did not pay: the recorded steps a replay answered from its cassette. */
  readonly avoidedUsd: number | null;
  /** What its parent's steps before the fork point cost (0 for a run that is not a fork). */
  readonly inheritedUsd: number | null;
  /** What its trajectory's model steps cost at these prices, whoever paid: the three together. */
  readonly trajectoryUsd: number | null;
}

/** The cost of each branch and the difference, b minus a. */
export interface CostComparison {
  readonly a: BranchCost;
  readonly b: BranchCost;
  readonly difference: { readonly paidUsd: number | null; readonly trajectoryUsd: number | null };
}

const nano = (usd: number): number => Math.round(usd * 1e9) / 1e9;
const sum = (values: readonly (number | null)[]): number | null =>
  values.some((value) => value === null)
    ? null
    : nano(values.reduce<number>((total, value) => total + (value ?? 0), 0));
const usdOf = (part: CostPart | null): number | null => (part === null ? null : part.usd);

/** A branch's cost in dollars, from a run's cost. */
export function branchCostOf(cost: RunCost): BranchCost {
  const paidUsd = cost.paid.usd;
  const avoidedUsd = cost.avoided.usd;
  const inheritedUsd = usdOf(cost.inherited);
  return { paidUsd, avoidedUsd, inheritedUsd, trajectoryUsd: sum([paidUsd, avoidedUsd, inheritedUsd]) };
}

/** The cost of two runs side by side, and what b cost more (or less, negative) than a; null when either has none. */
export function compareCosts(a: RunCost | null | undefined, b: RunCost | null | undefined): CostComparison | null {
  if (a == null || b == null) return null;
  const left = branchCostOf(a);
  const right = branchCostOf(b);
  const minus = (x: number | null, y: number | null): number | null => (x === null || y === null ? null : nano(x - y));
  return {
    a: left,
    b: right,
    difference: {
      paidUsd: minus(right.paidUsd, left.paidUsd),
      trajectoryUsd: minus(right.trajectoryUsd, left.trajectoryUsd),
    },
  };
}
