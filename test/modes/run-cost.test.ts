import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelResponse } from '../../src/conversation/index.js';
import { createEngine } from '../../src/engine/index.js';
import { ForkpointError } from '../../src/errors/index.js';
import type { PriceTable, TokenCounts } from '../../src/pricing/index.js';
import { NO_PRICES, definePriceTable } from '../../src/pricing/index.js';
import { memoryStore, sqliteStore } from '../../src/store/index.js';
import type { World } from '../../src/world/index.js';
import { tempFolder } from '../support/cli-harness.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';

// USD per million tokens; every model turn below uses the same tokens, so each costs the same.
const PRICES = definePriceTable(
  { models: [{ model: 'test-model', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }] },
  'test prices',
);
const TURN = {
  inputTokens: 1000,
  outputTokens: 400,
  cacheReadTokens: 5000,
  cacheWriteTokens: 200,
  reasoningTokens: 150,
};
// 1000 x 3 + 400 x 15 + 5000 x 0.3 + 200 x 3.75 micro-dollars: reasoning is part of the output, billed once.
const TURN_USD = (3000 + 6000 + 1500 + 750) / 1e6;
const turnTokens = (turns: number): TokenCounts => ({
  input: 1000 * turns,
  output: 400 * turns,
  cacheRead: 5000 * turns,
  cacheWrite: 200 * turns,
  reasoning: 150 * turns,
});
const usd = (turns: number): number => Math.round(TURN_USD * turns * 1e9) / 1e9;

/** The synthetic world, its model reporting {@link TURN} on every call, or failing its `failing`-th call. */
function meteredWorld(options: { failing?: number } = {}): World {
  const world = syntheticWorld({ toolCalls: 3 });
  let calls = 0;
  return {
    ...world,
    model: {
      respond: async (request): Promise<ModelResponse> => {
        if (++calls === options.failing) throw new ForkpointError('PROVIDER_FAILED', '503 overloaded');
        return { ...(await world.model.respond(request)), usage: TURN };
      },
    },
  };
}

const agent = testAgent();
const engineWith = (prices: PriceTable = PRICES, store = memoryStore()) =>
  createEngine({ store, prices, clock: () => new Date('2026-03-04T10:00:00Z') });

describe('what a run costs', () => {
  it('is what a recording paid: every model step priced, cache and reasoning tokens included, the same on every read', async () => {
    const engine = engineWith();
    const run = await engine.record({ agent, world: meteredWorld(), input: { task: 'a' } });
    // 3 tool calls: 4 model turns, and 3 tool steps that cost nothing here.
    expect(run.cost).toMatchObject({
      paid: { usd: usd(4), steps: 4, tokens: turnTokens(4) },
      avoided: { usd: 0, steps: 0 },
      inherited: { usd: 0, steps: 0 },
      unpriced: [],
      prices: ['test prices'],
    });
    expect(run.cost?.steps.map((step) => [step.step, step.model, step.usd])).toEqual(
      [1, 3, 5, 7].map((step) => [step, 'test-model', usd(1)]),
    );
    expect((await engine.getRun(run.runId)).cost).toEqual(run.cost);
    // A listing prices the totals the run stored as it ended, and reads no step.
    const { steps: _steps, ...whole } = run.cost ?? { steps: [] };
    expect((await engine.getRunSummary(run.runId)).cost).toEqual(whole);
    expect((await engine.runPage()).runs[0]?.cost).toEqual(whole);
  });

  it('is 0 for a strict replay, which reports the live cost it avoided', async () => {
    const engine = engineWith();
    const recorded = await engine.record({ agent, world: meteredWorld(), input: { task: 'a' } });
    const replay = await engine.replay({ agent, cassette: await engine.cassette(recorded.runId), mode: 'strict' });
    expect(replay.status).toBe('completed');
    expect(replay.cost?.paid).toEqual({ usd: 0, steps: 0, tokens: turnTokens(0) });
    expect(replay.cost?.avoided).toEqual(recorded.cost?.paid);
    expect((await engine.getRun(replay.runId)).cost?.avoided.usd).toBe(usd(4));
    expect((await engine.getRunSummary(replay.runId)).cost?.paid.usd).toBe(0);
  });

  it("splits a fork's cost into its own (paid) and its parent's (inherited)", async () => {
    const engine = engineWith();
    const parent = await engine.record({ agent, world: meteredWorld(), input: { task: 'a' } });
    // Step 4 is echo#1: steps 1 and 3 (model#0, model#1) are the parent's; model#2 and model#3 the fork's.
    const fork = await engine.fork({
      parentRunId: parent.runId,
      atStep: 4,
      override: { kind: 'tool-result', output: { echoed: 'changed' } },
      agent,
      world: meteredWorld(),
    });
    const read = await engine.getRun(fork.runId);
    expect(read.cost).toMatchObject({
      paid: { usd: usd(2), steps: 2, tokens: turnTokens(2) },
      inherited: { usd: usd(2), steps: 2, tokens: turnTokens(2) },
      avoided: { usd: 0, steps: 0 },
    });
    expect(read.cost?.steps.map((step) => step.step)).toEqual([1, 3, 5, 7]);
    // Its result, like a listing, holds its own steps only: what it inherited is the read's to say.
    expect(fork.cost).toMatchObject({ paid: read.cost?.paid, inherited: null });
    expect((await engine.runPage()).runs[0]).toMatchObject({ runId: fork.runId, cost: { paid: { usd: usd(2) } } });
  });

  it('is unknown, never 0, for a model the table does not price, and says which', async () => {
    const engine = engineWith(NO_PRICES);
    const run = await engine.record({ agent, world: meteredWorld(), input: { task: 'a' } });
    expect(run.cost).toMatchObject({
      paid: { usd: null, steps: 4, tokens: turnTokens(4) },
      avoided: { usd: 0, steps: 0 },
      unpriced: ['test-model'],
    });
    expect(run.cost?.steps.every((step) => step.usd === null)).toBe(true);
    expect((await engine.getRunSummary(run.runId)).cost?.paid.usd).toBeNull();
  });

  it('is priced when read: a table given later prices the runs made before it', async () => {
    const store = memoryStore();
    const run = await engineWith(NO_PRICES, store).record({ agent, world: meteredWorld(), input: { task: 'a' } });
    const later = engineWith(PRICES, store);
    expect((await later.getRun(run.runId)).cost?.paid.usd).toBe(usd(4));
    expect((await later.getRunSummary(run.runId)).cost?.paid.usd).toBe(usd(4));
  });

  it('counts every attempt of a resumed run, from its stored totals or, where it stored none, from its steps', async () => {
    const folder = tempFolder('forkpoint-cost-');
    cleanups.push(folder.cleanup);
    const path = join(folder.path, 'runs.db');
    const engine = engineWith(PRICES, sqliteStore({ path }));
    // The third model call fails: two model steps are committed, and stored with the run's ending.
    const stopped = await engine.record({ agent, world: meteredWorld({ failing: 3 }), input: { task: 'a' } });
    expect(stopped).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_FAILED' } });
    expect((await engine.getRunSummary(stopped.runId)).cost?.paid.steps).toBe(2);
    const resumed = await engine.resume({ runId: stopped.runId, agent, world: meteredWorld() });
    expect(resumed.status).toBe('completed');
    expect((await engine.getRunSummary(stopped.runId)).cost?.paid).toEqual({
      usd: usd(4),
      steps: 4,
      tokens: turnTokens(4),
    });

    // A run that stopped before forkpoint kept totals: its resume reads its earlier steps' from their rows.
    const old = await engine.record({ agent, world: meteredWorld({ failing: 2 }), input: { task: 'b' } });
    const db = new Database(path);
    db.prepare('UPDATE runs SET usage = NULL WHERE run_id = ?').run(old.runId);
    db.close();
    expect((await engine.getRunSummary(old.runId)).cost).toBeNull();
    await engine.resume({ runId: old.runId, agent, world: meteredWorld() });
    expect((await engine.getRunSummary(old.runId)).cost?.paid).toMatchObject({ usd: usd(4), steps: 4 });
    await engine.store.close();
  });

  it('is still known once the steps expired: the totals the run stored price it', async () => {
    const store = memoryStore();
    const run = await engineWith(PRICES, store).record({ agent, world: meteredWorld(), input: { task: 'a' } });
    const afterExpiry = createEngine({ store, prices: PRICES, clock: () => new Date('2026-03-09T00:00:00Z') });
    await afterExpiry.gc();
    const read = await afterExpiry.getRun(run.runId);
    expect(read.steps).toEqual([]);
    expect(read.cost).toMatchObject({ paid: { usd: usd(4), steps: 4 }, steps: [] });
  });
});

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
