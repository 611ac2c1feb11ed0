import type { JsonObject } from '../json/index.js';
import { definePriceTable } from './parse-price-table.js';
import type { PriceTable } from './price-table.js';

/**
 * forkpoint's own price table, in the format of a price table file (see
 * `parsePriceTable`). The figures are the providers' list prices as this
 * project recorded them on `asOf`, from the pages in `source`; they are not
 * fetched or verified against the network here (forkpoint makes no call to
 * price a run), and a provider may have changed them since: a table of your
 * own (`--prices FILE`, `FORKPOINT_PRICES`, `createEngine({ prices })`)
 * replaces any of them. A model missing here is priced unknown, never free.
 */
export const SHIPPED_PRICE_DOCUMENT: JsonObject = {
  asOf: '2026-12-01',
  source: [
    'https://www.anthropic.com/pricing#api',
    'https://docs.anthropic.com/en/docs/about-claude/pricing',
    'https://openai.com/api/pricing/',
    'https://platform.openai.com/docs/pricing',
  ],
  unit: 'USD per million tokens',
  note: [
    'List prices as this project recorded them on asOf; not verified against the network here.',
    'Standard tier only: no batch or priority discounts, no long-context premium (Claude Sonnet 4 and 4.5 over',
    '200K input tokens bill more), no regional multiplier. cacheWrite is the 5-minute cache write: a 1-hour',
    'write bills 2x input, and the neutral usage does not tell the two apart. OpenAI lists no cache-write price,',
    'so its models have none: a step that reports cache writes is priced unknown. Newer models than these are',
    'missing on purpose rather than guessed: price them with a table of your own.',
  ].join(' '),
  models: [
    // Anthropic: cache reads bill 0.1x input, 5-minute cache writes 1.25x.
    { model: 'claude-opus-4-5', input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    { model: 'claude-opus-4-1', input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
    { model: 'claude-opus-4-0', input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
    { model: 'claude-opus-4', input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
    { model: 'claude-sonnet-4-5', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    { model: 'claude-sonnet-4-0', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    { model: 'claude-sonnet-4', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    { model: 'claude-3-7-sonnet', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    { model: 'claude-3-5-sonnet', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    { model: 'claude-haiku-4-5', input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    { model: 'claude-3-5-haiku', input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
    { model: 'claude-3-opus', input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
    { model: 'claude-3-haiku', input: 0.25, output: 1.25, cacheRead: 0.03, cacheWrite: 0.3 },
    // OpenAI: `cacheRead` is its cached input price.
    { model: 'gpt-5', input: 1.25, output: 10, cacheRead: 0.125 },
    { model: 'gpt-5-mini', input: 0.25, output: 2, cacheRead: 0.025 },
    { model: 'gpt-5-nano', input: 0.05, output: 0.4, cacheRead: 0.005 },
    { model: 'gpt-4.1', input: 2, output: 8, cacheRead: 0.5 },
    { model: 'gpt-4.1-mini', input: 0.4, output: 1.6, cacheRead: 0.1 },
    { model: 'gpt-4.1-nano', input: 0.1, output: 0.4, cacheRead: 0.025 },
    { model: 'gpt-4o', input: 2.5, output: 10, cacheRead: 1.25 },
    // The first gpt-4o snapshot kept its launch price, and had no cached-input price.
    { model: 'gpt-4o-2024-05-13', input: 5, output: 15 },
    { model: 'gpt-4o-mini', input: 0.15, output: 0.6, cacheRead: 0.075 },
    { model: 'o3', input: 2, output: 8, cacheRead: 0.5 },
    { model: 'o4-mini', input: 1.1, output: 4.4, cacheRead: 0.275 },
    { model: 'o3-mini', input: 1.1, output: 4.4, cacheRead: 0.55 },
    { model: 'o1', input: 15, output: 60, cacheRead: 7.5 },
  ],
};

/** {@link SHIPPED_PRICE_DOCUMENT} as a table: what runs are priced by unless a table of one's own says otherwise. */
export const SHIPPED_PRICES: PriceTable = definePriceTable(SHIPPED_PRICE_DOCUMENT, "forkpoint's list prices");
