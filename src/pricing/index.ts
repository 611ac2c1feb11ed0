export {
  NO_PRICES,
  mergePriceTables,
  priceOf,
  type ModelPrice,
  type PriceSource,
  type PriceTable,
} from './price-table.js';
export { PRICE_UNIT, definePriceTable, parsePriceTable } from './parse-price-table.js';
export { SHIPPED_PRICES, SHIPPED_PRICE_DOCUMENT } from './shipped-prices.js';
export {
  NO_TOKENS,
  UsageTally,
  addTokens,
  isUsageTotals,
  usageOfResponse,
  type StepUsage,
  type TokenCounts,
  type UsageTotal,
} from './usage-totals.js';
export { costBucketOf, runCostOf, stepCostOf, usdOf, type CostPart, type RunCost, type StepCost } from './run-cost.js';
export { costOfSteps, usageOfStep, usageTotalsOf, type PricedStep, type RunCostDetail } from './trajectory-cost.js';
export type { PriceLookup } from './price-lookup.js';
