import type { PriceLookup, PriceTable } from '../pricing/index.js';
import type { RunRecord } from '../store/index.js';

/**
 * The price table of each of `runs`, looked up once per scenario among them:
 * read outside a store's read transaction, since a lookup may load a scenario.
 */
export async function priceTablesOf(
  prices: PriceLookup,
  runs: readonly Pick<RunRecord, 'scenario'>[],
): Promise<(run: Pick<RunRecord, 'scenario'>) => PriceTable> {
  const scenarios = [...new Set(runs.map((run) => run.scenario))];
  const tables = new Map(
    await Promise.all(scenarios.map(async (scenario) => [scenario, await prices(scenario)] as const)),
  );
  return (run) => {
    const table = tables.get(run.scenario);
    if (table === undefined) throw new Error(`priceTablesOf: no table was looked up for scenario ${run.scenario}`);
    return table;
  };
}
