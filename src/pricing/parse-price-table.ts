import { ForkpointError, isForkpointError } from '../errors/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonArray, isJsonObject, parseJsonInput } from '../json/index.js';
import type { ModelPrice, PriceTable } from './price-table.js';

/** The one unit a price table's figures are in; a table that states another is refused rather than misread. */
export const PRICE_UNIT = 'USD per million tokens';

const TABLE_FIELDS = ['asOf', 'source', 'unit', 'note', 'models'];
const ENTRY_FIELDS = ['model', 'input', 'output', 'cacheRead', 'cacheWrite', 'note'];
const RATES = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;

/**
 * Reads a price table file: JSON of the form
 * `{ "asOf": "YYYY-MM-DD", "source": [URL, ...], "unit": "USD per million tokens", "note": "...",
 * "models": [{ "model": "gpt-4.1", "input": 2, "output": 8, "cacheRead": 0.5 }] }`, where only `models`
 * is required and each entry names one model id with its rates (`input` and `output` required,
 * `cacheRead` and `cacheWrite` optional: a rate left out is unknown, not free).
 * Anything else is `PRICES_INVALID` naming the file and the field: text that is
 * not JSON, a field of another name or type, a negative or non-number price, a
 * model named twice. Nothing is guessed.
 *
 * @param origin the file's path (or what the text is), for messages and the table's `sources`
 */
export function parsePriceTable(text: string, origin: string): PriceTable {
  let document: JsonValue;
  try {
    document = parseJsonInput(text, `the price table ${origin}`, 'PRICES_INVALID');
  } catch (error) {
    if (!isForkpointError(error)) throw error;
    throw new ForkpointError('PRICES_INVALID', error.problem, { details: { path: origin }, cause: error });
  }
  return definePriceTable(document, origin);
}

/**
 * Declares a price table as a value rather than a file (a scenario's own for
 * its simulated models, forkpoint's shipped one), checked as
 * {@link parsePriceTable} checks a file.
 *
 * @example
 * ```ts
 * const prices = definePriceTable({ asOf: '2026-12-01', models: [{ model: 'my-model', input: 1, output: 4 }] }, 'my scenario');
 * ```
 */
export function definePriceTable(document: JsonValue, origin: string): PriceTable {
  const fail = (field: string, problem: string): never => {
    throw new ForkpointError('PRICES_INVALID', `the price table ${origin}: ${field} ${problem}`, {
      details: { path: origin, field },
    });
  };
  if (!isJsonObject(document)) return fail('the table', 'must be a JSON object with a list of "models"');
  unknownFields(document, TABLE_FIELDS, '', fail);
  const { asOf, source, unit, models } = document;
  if (asOf !== undefined && (typeof asOf !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(asOf)))
    fail('asOf', `must be a date (YYYY-MM-DD), got ${JSON.stringify(asOf)}`);
  if (unit !== undefined && unit !== PRICE_UNIT) fail('unit', `must be "${PRICE_UNIT}", got ${JSON.stringify(unit)}`);
  const sources = source === undefined ? [] : typeof source === 'string' ? [source] : source;
  if (!isJsonArray(sources) || !sources.every((item) => typeof item === 'string'))
    fail('source', 'must be a URL or a list of them');
  if (!isJsonArray(models)) return fail('models', 'must be a list of { "model", "input", "output", ... } entries');
  const prices = new Map<string, ModelPrice>();
  const named = new Map<string, number>();
  models.forEach((entry, position) => {
    const at = `models[${position}]`;
    if (!isJsonObject(entry))
      return fail(at, 'must be an object such as { "model": "gpt-4.1", "input": 2, "output": 8 }');
    unknownFields(entry, ENTRY_FIELDS, `${at}.`, fail);
    const { model } = entry;
    if (typeof model !== 'string' || model.trim() === '') return fail(`${at}.model`, 'must be a model id');
    const earlier = named.get(model);
    if (earlier !== undefined) fail(`${at}.model`, `names ${model} a second time (first at models[${earlier}])`);
    named.set(model, position);
    prices.set(model, priceOfEntry(entry, at, fail));
  });
  return {
    sources: [{ origin, asOf: typeof asOf === 'string' ? asOf : null, source: sources as string[] }],
    models: prices,
  };
}

function priceOfEntry(entry: JsonObject, at: string, fail: (field: string, problem: string) => never): ModelPrice {
  const rates: { -readonly [rate in keyof ModelPrice]?: number } = {};
  for (const rate of RATES) {
    const value = entry[rate];
    if (value === undefined) {
      if (rate === 'input' || rate === 'output') fail(`${at}.${rate}`, `is missing (${PRICE_UNIT})`);
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      fail(`${at}.${rate}`, `must be a price of 0 or more (${PRICE_UNIT}), got ${JSON.stringify(value)}`);
    rates[rate] = value;
  }
  const { input = 0, output = 0, cacheRead, cacheWrite } = rates;
  return {
    input,
    output,
    ...(cacheRead === undefined ? {} : { cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWrite }),
  };
}

// A misspelt rate (`cache_read`) would otherwise leave that rate unknown without a word.
function unknownFields(
  object: JsonObject,
  known: readonly string[],
  prefix: string,
  fail: (field: string, problem: string) => never,
): void {
  const extra = Object.keys(object).find((key) => !known.includes(key));
  if (extra !== undefined)
    fail(`${prefix}${extra}`, `is not a field of a price table; the fields are ${known.join(', ')}`);
}
