import { definePriceTable } from '../../src/index.js';

/**
 * The simulated provider's prices, so that the story's runs show what they
 * would cost. They are made up, as its models' answers are: the ids are those
 * of real models, but these figures are not their list prices, and they price
 * this scenario's runs only (a run of another scenario on the same model is
 * priced by forkpoint's table, or yours).
 */
export const CLAIMS_PRICES = definePriceTable(
  {
    source: 'scenarios/claims-triage/model/simulated-model.ts',
    note: "The simulated provider's own figures, made up for the story: not any provider's list prices.",
    unit: 'USD per million tokens',
    models: [
      { model: 'claude-opus-5', input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
      { model: 'claude-sonnet-5', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    ],
  },
  'scenarios/claims-triage (simulated models)',
);
