import type { JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import type { Provenance } from '../vocabulary/index.js';
import type { PriceTable } from './price-table.js';
import type { RunCost, StepCost } from './run-cost.js';
import { runCostOf, stepCostOf } from './run-cost.js';
import type { StepUsage, UsageTotal } from './usage-totals.js';
import { UsageTally, usageOfResponse } from './usage-totals.js';

/** What pricing reads of a step (a `StepView` has it). */
export interface PricedStep {
  readonly step: number;
  /** `model` or a tool name: only model steps cost anything here. */
  readonly kind: string;
  readonly provenance: Provenance;
  /** The canonical request: a model step's says the model asked for. */
  readonly request: JsonValue;
  /** A model step's response: the model that answered and its usage. */
  readonly response: JsonValue;
}

/** A run's cost read from its steps, each model step's own cost with it. */
export type RunCostDetail = RunCost & {
  /** Every model step's cost, in step order; tool steps have none. */
  readonly steps: readonly StepCost[];
};

/** What a model step used; undefined for a tool step. */
export function usageOfStep(step: PricedStep): StepUsage | undefined {
  if (step.kind !== 'model') return undefined;
  const requested = isJsonObject(step.request) && typeof step.request.model === 'string' ? step.request.model : '';
  return usageOfResponse(step.response, requested);
}

/** The token totals, by model and provenance, of the steps' model steps. */
export function usageTotalsOf(steps: readonly PricedStep[]): UsageTotal[] {
  const tally = new UsageTally();
  for (const step of steps) {
    const usage = usageOfStep(step);
    if (usage !== undefined) tally.add(step.provenance, usage);
  }
  return tally.totals;
}

/**
 * What a trajectory cost, read from its steps (a fork's inherited ones
 * included): every model step priced by `table`, and the run's parts.
 */
export function costOfSteps(steps: readonly PricedStep[], table: PriceTable): RunCostDetail {
  const tally = new UsageTally();
  const costs: StepCost[] = [];
  for (const step of steps) {
    const usage = usageOfStep(step);
    if (usage === undefined) continue;
    tally.add(step.provenance, usage);
    costs.push(stepCostOf(table, step.step, usage));
  }
  return { ...runCostOf(tally.totals, table, 'counted'), steps: costs };
}
