import { describe, expect, it } from 'vitest';
import { isForkpointError } from '../../src/errors/index.js';
import {
  SHIPPED_PRICES,
  SHIPPED_PRICE_DOCUMENT,
  costOfSteps,
  mergePriceTables,
  parsePriceTable,
  priceOf,
  runCostOf,
  usdOf,
} from '../../src/pricing/index.js';
import type { PricedStep, TokenCounts } from '../../src/pricing/index.js';
import { thrown } from '../support/thrown.js';

const table = (models: unknown, extra: object = {}): string => JSON.stringify({ ...extra, models });
const tokens = (counts: Partial<TokenCounts>): TokenCounts => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
  ...counts,
});

describe('a price table file', () => {
  it('reads models, rates, its date and its sources', () => {
    const read = parsePriceTable(
      table([{ model: 'm-1', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, note: 'list price' }], {
        asOf: '2026-11-02',
        source: 'https://example.com/pricing',
        unit: 'USD per million tokens',
      }),
      'prices.json',
    );
    expect(read.sources).toEqual([
      { origin: 'prices.json', asOf: '2026-11-02', source: ['https://example.com/pricing'] },
    ]);
    expect(priceOf(read, 'm-1')).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(priceOf(read, 'm-2')).toBeUndefined();
  });

  const refusals: readonly [string, string, string][] = [
    ['text that is not JSON', '{"models": [', 'the price table p.json is not valid JSON'],
    ['a list for a table', '[]', 'the price table p.json: the table must be a JSON object'],
    ['no models', '{"asOf": "2026-11-02"}', 'models must be a list'],
    [
      'a model named twice',
      table([
        { model: 'm', input: 1, output: 2 },
        { model: 'm', input: 1, output: 3 },
      ]),
      'models[1].model names m a second time (first at models[0])',
    ],
    [
      'a negative price',
      table([{ model: 'm', input: -1, output: 2 }]),
      'models[0].input must be a price of 0 or more (USD per million tokens), got -1',
    ],
    [
      'a price that is not a number',
      table([{ model: 'm', input: '3', output: 2 }]),
      'models[0].input must be a price of 0 or more (USD per million tokens), got "3"',
    ],
    ['a missing output price', table([{ model: 'm', input: 3 }]), 'models[0].output is missing'],
    [
      'a misspelt rate',
      table([{ model: 'm', input: 3, output: 4, cache_read: 1 }]),
      'models[0].cache_read is not a field of a price table',
    ],
    ['an empty model id', table([{ model: ' ', input: 3, output: 4 }]), 'models[0].model must be a model id'],
    ['another unit', table([], { unit: 'EUR per million tokens' }), 'unit must be "USD per million tokens"'],
    ['a date that is not one', table([], { asOf: 'Nov 2' }), 'asOf must be a date (YYYY-MM-DD)'],
  ];
  for (const [what, text, message] of refusals) {
    it(`refuses ${what} as PRICES_INVALID, in one line naming the file`, () => {
      const error = thrown(() => parsePriceTable(text, 'p.json'));
      expect(isForkpointError(error, 'PRICES_INVALID')).toBe(true);
      expect(error.message).toContain(message);
      expect(error.message).not.toContain('\n');
      expect(error.details.path).toBe('p.json');
    });
  }
});

describe('prices', () => {
  it('match a model exactly, then a dated snapshot by its alias, never a guess', () => {
    expect(priceOf(SHIPPED_PRICES, 'claude-sonnet-4-5-20250929')).toEqual(priceOf(SHIPPED_PRICES, 'claude-sonnet-4-5'));
    expect(priceOf(SHIPPED_PRICES, 'gpt-4o-2024-08-06')).toEqual(priceOf(SHIPPED_PRICES, 'gpt-4o'));
    // A snapshot the table names keeps its own price.
    expect(priceOf(SHIPPED_PRICES, 'gpt-4o-2024-05-13')).toEqual({ input: 5, output: 15 });
    expect(priceOf(SHIPPED_PRICES, 'gpt-4o-turbo')).toBeUndefined();
    expect(priceOf(SHIPPED_PRICES, 'claude-sonnet-4-5-latest')).toBeUndefined();
  });

  it('ship with their date and sources in the table itself', () => {
    expect(SHIPPED_PRICE_DOCUMENT.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(SHIPPED_PRICES.sources[0]?.source.every((url) => url.startsWith('https://'))).toBe(true);
    expect(SHIPPED_PRICE_DOCUMENT.note).toContain('not verified against the network');
  });

  it('merge lowest first: a later table replaces a model, and keeps every source', () => {
    const mine = parsePriceTable(table([{ model: 'gpt-4.1', input: 1, output: 4 }]), 'mine.json');
    const merged = mergePriceTables(SHIPPED_PRICES, undefined, mine);
    expect(priceOf(merged, 'gpt-4.1')).toEqual({ input: 1, output: 4 });
    expect(priceOf(merged, 'gpt-4.1-2025-04-14')).toEqual({ input: 1, output: 4 });
    expect(priceOf(merged, 'gpt-4o')).toEqual(priceOf(SHIPPED_PRICES, 'gpt-4o'));
    expect(merged.sources.map((source) => source.origin)).toEqual(["forkpoint's list prices", 'mine.json']);
  });
});

describe('the arithmetic', () => {
  const prices = parsePriceTable(
    table([
      { model: 'cached', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      { model: 'no-cache-write', input: 2, output: 8, cacheRead: 0.5 },
    ]),
    't.json',
  );

  it('prices each kind of token at its rate, and reasoning as the output it is part of, once', () => {
    // 1000 x 3 + 500 x 15 + 10000 x 0.3 + 2000 x 3.75 micro-dollars; the 200 reasoning tokens are in the 500.
    const usd = usdOf(
      prices,
      'cached',
      tokens({ input: 1000, output: 500, cacheRead: 10000, cacheWrite: 2000, reasoning: 200 }),
    );
    expect(usd).toBeCloseTo((3000 + 7500 + 3000 + 7500) / 1e6, 12);
    expect(usdOf(prices, 'cached', tokens({ output: 500, reasoning: 500 }))).toBeCloseTo(0.0075, 12);
  });

  it('calls a cost unknown, never 0, when the model or a rate its tokens need is missing', () => {
    expect(usdOf(prices, 'unknown-model', tokens({ input: 10 }))).toBeNull();
    expect(usdOf(prices, 'no-cache-write', tokens({ input: 10, cacheWrite: 5 }))).toBeNull();
    // No tokens of the kind: no rate needed.
    expect(usdOf(prices, 'no-cache-write', tokens({ input: 10, cacheRead: 5 }))).toBeCloseTo(22.5 / 1e6, 12);
  });

  it('sums a run by provenance: live is paid, recorded avoided, inherited apart, an override nowhere', () => {
    const step = (n: number, provenance: PricedStep['provenance'], model: string, input: number): PricedStep => ({
      step: n,
      kind: 'model',
      provenance,
      request: { model: 'asked-for' },
      response: { model, usage: { inputTokens: input, outputTokens: 100, reasoningTokens: 40 } },
    });
    const tool: PricedStep = { step: 2, kind: 'lookup', provenance: 'live', request: {}, response: { output: 1 } };
    const cost = costOfSteps(
      [
        step(1, 'inherited', 'cached', 1000),
        tool,
        step(3, 'live', 'cached', 2000),
        step(4, 'recorded', 'cached', 500),
        step(5, 'override', 'cached', 9),
      ],
      prices,
    );
    expect(cost.inherited).toEqual({
      usd: 0.0045,
      steps: 1,
      tokens: tokens({ input: 1000, output: 100, reasoning: 40 }),
    });
    expect(cost.paid).toEqual({ usd: 0.0075, steps: 1, tokens: tokens({ input: 2000, output: 100, reasoning: 40 }) });
    expect(cost.avoided).toEqual({ usd: 0.003, steps: 1, tokens: tokens({ input: 500, output: 100, reasoning: 40 }) });
    expect(cost.steps.map((each) => [each.step, each.usd])).toEqual([
      [1, 0.0045],
      [3, 0.0075],
      [4, 0.003],
      [5, 0.001527],
    ]);
    expect(cost.unpriced).toEqual([]);
    expect(cost.prices).toEqual(['t.json']);
  });

  it('makes the sums an unknown model enters unknown, and names it', () => {
    const cost = runCostOf(
      [
        { model: 'cached', provenance: 'live', steps: 2, ...tokens({ input: 1000 }) },
        { model: 'mystery', provenance: 'live', steps: 1, ...tokens({ input: 5 }) },
        { model: 'cached', provenance: 'recorded', steps: 1, ...tokens({ input: 1000 }) },
      ],
      prices,
      'not-read',
    );
    expect(cost.paid).toMatchObject({ usd: null, steps: 3, tokens: { input: 1005 } });
    expect(cost.avoided.usd).toBe(0.003);
    expect(cost.inherited).toBeNull();
    expect(cost.unpriced).toEqual(['mystery']);
  });

  it('prices a step by the model that answered, and by the one asked for when the response names none', () => {
    const asked: PricedStep = {
      step: 1,
      kind: 'model',
      provenance: 'live',
      request: { model: 'cached' },
      response: { model: '', usage: { inputTokens: 1000, outputTokens: 0 } },
    };
    expect(costOfSteps([asked], prices).steps[0]).toMatchObject({ model: 'cached', usd: 0.003 });
  });
});
