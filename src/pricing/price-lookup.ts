import type { PriceTable } from './price-table.js';

/**
 * The price table a run is priced by, given the scenario it came from (as the
 * run stores it; null for library use): a scenario may price the simulated
 * models only it knows, and its table must not price another scenario's runs.
 */
export type PriceLookup = (scenario: string | null) => PriceTable | Promise<PriceTable>;
