import { readFileSync } from 'node:fs';
import { ForkpointError } from '../errors/index.js';
import type { PriceLookup, PriceTable } from '../pricing/index.js';
import { SHIPPED_PRICES, mergePriceTables, parsePriceTable } from '../pricing/index.js';
import { scenarioIfLoadable } from './commands/scenario-of-run.js';

/**
 * The user's own price table, from `--prices FILE` (on the reading commands),
 * else from `$FORKPOINT_PRICES`; undefined when neither names one. A file that
 * cannot be read is `USAGE`, one that does not hold a price table
 * `PRICES_INVALID` (both exit 2).
 */
export function userPriceTable(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): PriceTable | undefined {
  const path = flag ?? env.FORKPOINT_PRICES;
  if (path === undefined || path === '') return undefined;
  const named = flag === undefined ? 'FORKPOINT_PRICES' : '--prices';
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ForkpointError('USAGE', `${named} names ${path}, which cannot be read (${(error as Error).message})`, {
      cause: error,
      details: { path },
    });
  }
  return parsePriceTable(text, path);
}

/**
 * How the CLI prices a run: forkpoint's shipped table, the table of the
 * scenario the run came from over it (its simulated models), and the user's
 * own over both. Each scenario is loaded once; one that no longer loads adds
 * nothing, so its models read as unpriced rather than failing the command.
 */
export function cliPriceLookup(user: PriceTable | undefined): PriceLookup {
  const tables = new Map<string | null, Promise<PriceTable>>();
  const tableOf = async (scenario: string | null): Promise<PriceTable> => {
    const own = scenario === null ? undefined : (await scenarioIfLoadable(scenario))?.prices;
    return mergePriceTables(SHIPPED_PRICES, isPriceTable(own) ? own : undefined, user);
  };
  return (scenario) => {
    let table = tables.get(scenario);
    if (table === undefined) {
      table = tableOf(scenario);
      tables.set(scenario, table);
    }
    return table;
  };
}

// A scenario is the user's code: a `prices` that is not a table (not made by definePriceTable) is ignored.
function isPriceTable(value: unknown): value is PriceTable {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Partial<PriceTable>).models instanceof Map &&
    Array.isArray((value as Partial<PriceTable>).sources)
  );
}
