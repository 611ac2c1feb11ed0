import Database from 'better-sqlite3';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';

const SEED = ['--seed', '20260304'];
const SIMULATE = ['--side-effects', 'estimate_repair=simulate'];
const MERGE = '{"fields":{"damage_area_cm2":{"value":2050,"confidence":0.97}}}';

interface Part {
  usd: number | null;
  steps: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number };
}
interface Cost {
  paid: Part;
  avoided: Part;
  inherited: Part | null;
  unpriced: string[];
  prices: string[];
  steps?: { step: number; model: string; usd: number | null }[];
}

let folder: ReturnType<typeof tempFolder>;
let db: string;
let fork: string;
let replay: string;
const run = (args: readonly string[], env: Record<string, string> = {}) =>
  cli([...args, '--db', db], { env: { NO_COLOR: '1', ...env } });
const json = async <T>(args: readonly string[], env: Record<string, string> = {}): Promise<T> => {
  const result = await run([...args, '--json'], env);
  expect(result.exit, result.stderr).toBeLessThan(2);
  return JSON.parse(result.stdout) as T;
};
const file = (name: string, text: string): string => {
  const path = join(folder.path, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(async () => {
  folder = tempFolder('forkpoint-prices-cli-');
  db = join(folder.path, 'forkpoint.db');
  const claim = ['--claim', 'CLM-91077', '--at', '2026-03-04'];
  await run(['record', 'scenarios/claims-triage', ...claim, ...SEED, '--run-id', '9b40c1d5']);
  replay = (await json<{ runId: string }>(['replay', '9b40c1d5'])).runId;
  fork = (await json<{ runId: string }>(['fork', '9b40c1d5', '--at-step', '4', '--tool-merge', MERGE, ...SIMULATE]))
    .runId;
});
afterAll(() => {
  folder.cleanup();
});

describe('forkpoint show, runs and compare: what runs cost', () => {
  it("show prints every model step's tokens and USD, and what the run paid; its JSON carries the same numbers", async () => {
    const cost = (await json<{ cost: Cost }>(['show', '9b40c1d5'])).cost;
    expect(cost.paid.steps).toBe(5);
    // One name, `cost`, with the units in its fields: usd (US dollars) and tokens.
    expect(Object.keys(cost).sort()).toEqual(['avoided', 'inherited', 'paid', 'prices', 'steps', 'unpriced']);
    expect(Object.keys(cost.paid).sort()).toEqual(['steps', 'tokens', 'usd']);
    expect(Object.keys(cost.paid.tokens).sort()).toEqual(['cacheRead', 'cacheWrite', 'input', 'output', 'reasoning']);
    expect(cost.steps?.map((step) => Object.keys(step).sort())).toEqual(
      Array.from({ length: 5 }, () => ['model', 'step', 'tokens', 'usd']),
    );
    // The scenario prices its simulated models; forkpoint's own table comes first.
    expect(cost.prices).toEqual([
      "forkpoint's list prices (as of 2026-12-01)",
      'scenarios/claims-triage (simulated models)',
    ]);
    expect(cost.unpriced).toEqual([]);
    const { stdout } = await run(['show', '9b40c1d5']);
    expect(stdout).toMatch(/^cost in USD, priced by forkpoint's list prices/m);
    expect(stdout).toMatch(/^ {2}step +call +from +model +input +cache read +cache write +output +reasoning +USD$/m);
    for (const step of cost.steps ?? [])
      expect(stdout).toMatch(
        new RegExp(`^ +${step.step} +model#\\d +live +claude-opus-5 .* ${step.usd?.toFixed(6)}$`, 'm'),
      );
    expect(stdout).toMatch(
      new RegExp(
        `^ +paid +live +5 steps +${cost.paid.tokens.input.toLocaleString('en-US')} .* ${cost.paid.usd?.toFixed(6)}$`,
        'm',
      ),
    );
    const lines = stdout.split('\n');
    const table = lines.slice(lines.findIndex((line) => line.startsWith('cost in USD')));
    for (const line of table.filter((text) => /^ +(\d+|paid) /.test(text)))
      expect(line.length).toBeLessThanOrEqual(120);
  });

  it('a strict replay pays 0 and reports what it avoided; a fork pays its own steps and inherits the rest', async () => {
    const record = (await json<{ cost: Cost }>(['show', '9b40c1d5'])).cost;
    const replayed = (await json<{ cost: Cost }>(['show', replay])).cost;
    expect(replayed.paid).toMatchObject({ usd: 0, steps: 0 });
    expect(replayed.avoided).toEqual(record.paid);
    const forked = (await json<{ cost: Cost }>(['show', fork])).cost;
    expect(forked.inherited?.steps).toBe(2);
    expect(forked.paid.steps).toBe(3);
    expect((forked.inherited?.usd ?? 0) + (forked.paid.usd ?? 0)).toBeGreaterThan(0);
    expect((await run(['show', replay])).stdout).toMatch(/^ +avoided +recorded +5 steps .* \d\.\d{6}$/m);
    // A replay ends by saying so.
    const again = await run(['replay', '9b40c1d5']);
    expect(again.stdout.trimEnd().split('\n').at(-1)).toBe(
      `cost: paid 0.000000 USD (0 live model steps); avoided ${record.paid.usd?.toFixed(6)} (5 recorded model steps, not paid again)`,
    );
    expect((await run(['show', fork])).stdout).toMatch(/^ +inherited +from 9b40c1d5 +2 steps /m);
  });

  it('runs lists what each run paid; its JSON carries each run’s cost', async () => {
    const page = await json<{ runs: { runId: string; cost: Cost }[] }>(['runs']);
    const paid = Object.fromEntries(page.runs.map((each) => [each.runId, each.cost.paid.usd]));
    expect(paid[replay]).toBe(0);
    // A listing reads no steps: a fork's inherited part is for show to say.
    expect(page.runs.find((each) => each.runId === fork)?.cost.inherited).toBeNull();
    const { stdout } = await run(['runs']);
    expect(stdout.split('\n')[0]).toMatch(/ from +USD +status$/);
    expect(stdout).toMatch(new RegExp(`^${replay} .* 0\\.000000 +failed$`, 'm'));
  });

  it("compare prints each branch's cost and the difference, in its JSON too", async () => {
    const comparison = await json<{
      cost: {
        a: { paidUsd: number; trajectoryUsd: number };
        b: { paidUsd: number; inheritedUsd: number; trajectoryUsd: number };
        difference: { paidUsd: number; trajectoryUsd: number };
      };
    }>(['compare', '9b40c1d5', fork]);
    const { a, b, difference } = comparison.cost;
    expect(b.trajectoryUsd).toBeCloseTo(b.paidUsd + b.inheritedUsd, 9);
    expect(difference.paidUsd).toBeCloseTo(b.paidUsd - a.paidUsd, 9);
    expect(difference.trajectoryUsd).toBeCloseTo(b.trajectoryUsd - a.trajectoryUsd, 9);
    const { stdout } = await run(['compare', '9b40c1d5', fork]);
    expect(stdout).toMatch(/^cost in USD +paid +avoided +inherited +trajectory$/m);
    expect(stdout).toMatch(
      new RegExp(`^a +${a.paidUsd.toFixed(6)} +0\\.000000 +0\\.000000 +${a.trajectoryUsd.toFixed(6)}$`, 'm'),
    );
    expect(stdout).toMatch(/^b - a +-\d\.\d{6} +[+-]\d\.\d{6}$/m);
  });

  it('prices by a table of your own over the others, from --prices or FORKPOINT_PRICES', async () => {
    const mine = file(
      'mine.json',
      JSON.stringify({ asOf: '2026-11-30', models: [{ model: 'claude-opus-5', input: 1, output: 1 }] }),
    );
    const flagged = (await json<{ cost: Cost }>(['show', '9b40c1d5', '--prices', mine])).cost;
    // 1 USD per million tokens of either kind: the run's tokens, in millionths.
    expect(flagged.paid.usd).toBeCloseTo((flagged.paid.tokens.input + flagged.paid.tokens.output) / 1e6, 9);
    expect(flagged.prices.at(-1)).toBe(`${mine} (as of 2026-11-30)`);
    const viaEnv = (await json<{ cost: Cost }>(['show', '9b40c1d5'], { FORKPOINT_PRICES: mine })).cost;
    expect(viaEnv.paid.usd).toBe(flagged.paid.usd);
    const listed = await json<{ runs: { runId: string; cost: Cost }[] }>(['runs', '--prices', mine]);
    expect(listed.runs.find((each) => each.runId === '9b40c1d5')?.cost.paid.usd).toBe(flagged.paid.usd);
    const tree = await json<{ tree: { run: { cost: Cost } } }>(['tree', '9b40c1d5', '--prices', mine]);
    expect(tree.tree.run.cost.paid.usd).toBe(flagged.paid.usd);
  });

  it('shows an unpriced model as unknown, never 0, and names it', async () => {
    // A copy of the database whose incident names a scenario that is gone: nothing prices its simulated model.
    const moved = join(folder.path, 'moved.db');
    writeFileSync(moved, readFileSync(db));
    const copy = new Database(moved);
    copy.prepare("UPDATE runs SET scenario = 'scenarios/gone' WHERE run_id = '9b40c1d5'").run();
    copy.close();
    const shown = await cli(['show', '9b40c1d5', '--db', moved, '--json'], { env: { NO_COLOR: '1' } });
    const cost = (JSON.parse(shown.stdout) as { cost: Cost }).cost;
    expect(cost.paid).toMatchObject({ usd: null, steps: 5 });
    expect(cost.paid.tokens.input).toBeGreaterThan(0);
    expect(cost.unpriced).toEqual(['claude-opus-5']);
    const { stdout } = await cli(['show', '9b40c1d5', '--db', moved], { env: { NO_COLOR: '1' } });
    expect(stdout).toMatch(/^ +paid +live +5 steps .* \?$/m);
    expect(stdout).toContain('no price for claude-opus-5: their cost is unknown (?), not 0');
    const listed = await cli(['runs', '--db', moved], { env: { NO_COLOR: '1' } });
    expect(listed.stdout).toMatch(/^9b40c1d5 .* - +\? +failed$/m);
  });
});

describe('a run through a real SDK', () => {
  it("is priced by forkpoint's list prices, its cache reads and writes at their own rates", async () => {
    await run(['record', 'scenarios/support-desk', '--ticket', 'T-2041', '--at', '2026-03-04', '--run-id', '5d5d5d5d']);
    const cost = (
      await json<{ cost: Cost & { steps: { model: string; usd: number; tokens: Part['tokens'] }[] } }>([
        'show',
        '5d5d5d5d',
      ])
    ).cost;
    expect(cost.prices).toEqual(["forkpoint's list prices (as of 2026-12-01)"]);
    expect(cost.unpriced).toEqual([]);
    expect(cost.paid.tokens.cacheRead).toBeGreaterThan(0);
    expect(cost.paid.tokens.cacheWrite).toBeGreaterThan(0);
    // claude-sonnet-4-5: 3 input, 15 output, 0.3 cache read, 3.75 cache write, USD per million tokens.
    for (const step of cost.steps) {
      const { input, output, cacheRead, cacheWrite } = step.tokens;
      expect(step.usd).toBeCloseTo((input * 3 + output * 15 + cacheRead * 0.3 + cacheWrite * 3.75) / 1e6, 9);
    }
  });
});

describe('a bad price table', () => {
  const refusals: readonly [string, string, string][] = [
    ['text that is not JSON', '{"models": [', 'PRICES_INVALID: the price table'],
    [
      'a model named twice',
      JSON.stringify({
        models: [
          { model: 'm', input: 1, output: 2 },
          { model: 'm', input: 2, output: 2 },
        ],
      }),
      'PRICES_INVALID: the price table',
    ],
    [
      'a negative price',
      JSON.stringify({ models: [{ model: 'm', input: -1, output: 2 }] }),
      'must be a price of 0 or more',
    ],
  ];
  for (const [what, text, message] of refusals) {
    it(`holding ${what} is refused in one line, exit 2, whichever command reads it, and nothing is written`, async () => {
      const path = file('bad.json', text);
      const before = statSync(db).mtimeMs;
      const shown = await run(['show', '9b40c1d5', '--prices', path]);
      expect(shown.exit).toBe(2);
      expect(shown.stdout).toBe('');
      expect(shown.stderr).toContain(message);
      expect(shown.stderr.trimEnd().split('\n')).toHaveLength(1);
      // From the environment, a recording into a new database is refused before the file is made.
      const fresh = join(folder.path, `fresh-${what.length}.db`);
      const recorded = await cli(
        ['record', 'scenarios/claims-triage', '--claim', 'CLM-91077', '--at', '2026-03-04', '--db', fresh, '--json'],
        { env: { NO_COLOR: '1', FORKPOINT_PRICES: path } },
      );
      expect(recorded.exit).toBe(2);
      expect(JSON.parse(recorded.stdout)).toMatchObject({ error: { code: 'PRICES_INVALID' } });
      expect(existsSync(fresh)).toBe(false);
      expect(statSync(db).mtimeMs).toBe(before);
    });
  }

  it('that is no file is USAGE, exit 2', async () => {
    const result = await run(['runs', '--prices', join(folder.path, 'nowhere.json')]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(/^forkpoint: USAGE: --prices names .*nowhere\.json, which cannot be read/);
  });
});
