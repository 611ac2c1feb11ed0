import type { Provenance } from '../vocabulary/index.js';
import type { PriceTable } from './price-table.js';
import { priceOf } from './price-table.js';
import type { StepUsage, TokenCounts, UsageTotal } from './usage-totals.js';
import { addTokens, NO_TOKENS } from './usage-totals.js';

/** What one model step cost: the model priced, its tokens, and US dollars (null: unknown, the table has no price for it). */
export type StepCost = {
  /** The step (of the run's trajectory, numbered from 1). */
  readonly step: number;
  readonly model: string;
  readonly usd: number | null;
  readonly tokens: TokenCounts;
};

/** Model steps summed: how many, their tokens, and what they cost in US dollars (null when a model among them is unpriced). */
export type CostPart = {
  readonly usd: number | null;
  readonly steps: number;
  readonly tokens: TokenCounts;
};

/**
 * What a run's model steps cost, by where their responses came from, priced
 * at read time by a {@link PriceTable} (so a table of one's own applies to old
 * runs too). A run's cost is what it paid live: `paid`. Steps it reused cost
 * it nothing and are counted apart: `avoided`, the recorded steps a replay
 * answered from its cassette (what it did not pay), and `inherited`, a fork's
 * steps before its fork point (what its parent's trajectory cost). A fork's
 * `override` step was written, not bought, and counts nowhere; tool steps
 * cost nothing here.
 */
export type RunCost = {
  readonly paid: CostPart;
  readonly avoided: CostPart;
  /** A fork's steps from its parent; null where they were not read (a listing, a fork's result: `getRun` reads them). */
  readonly inherited: CostPart | null;
  /** The models whose steps are counted but have no price in the table (or no rate for the cache tokens they used). */
  readonly unpriced: readonly string[];
  /** The price tables that priced it, lowest first: each one's origin, and the day of its figures where it says. */
  readonly prices: readonly string[];
};

/** The part of a run's cost each provenance's model steps count towards; null: none. */
export function costBucketOf(provenance: Provenance): 'paid' | 'avoided' | 'inherited' | null {
  return provenance === 'live'
    ? 'paid'
    : provenance === 'recorded'
      ? 'avoided'
      : provenance === 'inherited'
        ? 'inherited'
        : null;
}

// Rounded to the nano-dollar, so that sums of binary fractions print as the decimals they are.
const nano = (usd: number): number => Math.round(usd * 1e9) / 1e9;

/** US dollars for `tokens` of `model` by `table`; null when the table has no price for the model or for a kind of token it used. */
export function usdOf(table: PriceTable, model: string, tokens: TokenCounts): number | null {
  const price = priceOf(table, model);
  if (price === undefined) return null;
  const { cacheRead, cacheWrite } = price;
  if ((tokens.cacheRead > 0 && cacheRead === undefined) || (tokens.cacheWrite > 0 && cacheWrite === undefined))
    return null;
  // Reasoning is part of the output, billed at its rate: never counted twice.
  const microUsd =
    tokens.input * price.input +
    tokens.output * price.output +
    tokens.cacheRead * (cacheRead ?? 0) +
    tokens.cacheWrite * (cacheWrite ?? 0);
  return microUsd / 1e6;
}

/** One model step's cost. */
export function stepCostOf(table: PriceTable, step: number, usage: StepUsage): StepCost {
  const usd = usdOf(table, usage.model, usage.tokens);
  return { step, model: usage.model, usd: usd === null ? null : nano(usd), tokens: usage.tokens };
}

const EMPTY_PART: CostPart = { usd: 0, steps: 0, tokens: NO_TOKENS };

/**
 * A run's cost from its model steps' totals by model and provenance.
 *
 * @param inherited whether the totals include the inherited steps (a read of the whole trajectory) or not (a
 * fork's own totals, as a listing has them: its `inherited` is then null)
 */
export function runCostOf(
  totals: readonly UsageTotal[],
  table: PriceTable,
  inherited: 'counted' | 'not-read',
): RunCost {
  const parts = { paid: { ...EMPTY_PART }, avoided: { ...EMPTY_PART }, inherited: { ...EMPTY_PART } };
  const unpriced = new Set<string>();
  for (const total of totals) {
    const bucket = costBucketOf(total.provenance);
    if (bucket === null) continue;
    const usd = usdOf(table, total.model, total);
    if (usd === null) unpriced.add(total.model);
    const part = parts[bucket];
    parts[bucket] = {
      usd: usd === null || part.usd === null ? null : part.usd + usd,
      steps: part.steps + total.steps,
      tokens: addTokens(part.tokens, total),
    };
  }
  const rounded = (part: CostPart): CostPart => ({ ...part, usd: part.usd === null ? null : nano(part.usd) });
  return {
    paid: rounded(parts.paid),
    avoided: rounded(parts.avoided),
    inherited: inherited === 'counted' ? rounded(parts.inherited) : null,
    unpriced: [...unpriced].sort(),
    prices: table.sources.map((source) =>
      source.asOf === null ? source.origin : `${source.origin} (as of ${source.asOf})`,
    ),
  };
}
