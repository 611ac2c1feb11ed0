import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/engine/index.js';
import type { Engine } from '../../../src/engine/index.js';
import { memoryStore } from '../../../src/store/index.js';
import { isForkpointError } from '../../../src/errors/index.js';
import type { SupportEmulator } from '../../../scenarios/support-desk/index.js';
import scenario, { LIVE_SWITCH, baseline, openSupportWorld, planAware } from '../../../scenarios/support-desk/index.js';

const INCIDENT_DAY = '2026-03-04';
const FIXED_DAY = '2026-03-06';

/** The support world of a day, and the emulator it started once it has (to count what it was asked). */
function world(at: string, seed = 7) {
  const started: SupportEmulator[] = [];
  const opened = openSupportWorld({ at, seed, latencyMs: 0 }, { env: {}, onEmulator: (e) => started.push(e) });
  return { world: opened, requests: () => started.reduce((sum, e) => sum + e.requests(), 0), started };
}

async function incident(): Promise<{
  engine: Engine;
  runId: string;
  requests: () => number;
  close: () => Promise<void>;
}> {
  const engine = createEngine({ store: memoryStore() });
  const live = world(INCIDENT_DAY);
  const run = await engine.record({
    agent: baseline,
    world: live.world,
    input: { ticketId: 'T-2041' },
    runId: '5d2041aa0001',
  });
  return { engine, runId: run.runId, requests: live.requests, close: () => live.world.close?.() ?? Promise.resolve() };
}

const modelResponse = (response: unknown) =>
  response as { model: string; content: Array<{ type: string; signature?: string }>; usage: Record<string, unknown> };

describe('the support-desk scenario, through the real Anthropic SDK against its emulator', () => {
  it('records the incident: a Basic customer credited 49 EUR on the knowledge base typo, failed at step 7', async () => {
    const { engine, runId, requests, close } = await incident();
    const run = await engine.getRun(runId);
    await close();
    expect(run.steps.map((step) => step.kind)).toEqual([
      'model',
      'get_ticket',
      'model',
      'search_kb',
      'model',
      'issue_credit',
      'model',
    ]);
    expect(run.error).toMatchObject({ code: 'VALIDATION_FAILED', step: 7 });
    expect(run.error?.message).toMatch(/credit 49 EUR exceeds the basic plan's limit of 20 EUR/);
    expect(requests()).toBe(4);
    // Each model turn came back through the SDK with its reasoning and signature, and the cache's reads.
    const first = modelResponse(run.steps[0]?.response);
    expect(first.content[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/^[A-Za-z0-9]{48}$/) });
    expect(first.usage).toMatchObject({ cacheWriteTokens: expect.any(Number), cacheReadTokens: 0 });
    expect(modelResponse(run.steps[2]?.response).usage).toMatchObject({ cacheReadTokens: expect.any(Number) });
    expect(Number(modelResponse(run.steps[2]?.response).usage.cacheReadTokens)).toBeGreaterThan(0);
  });

  it('replays strictly over the recording without starting the emulator: no HTTP request', async () => {
    const { engine, runId, requests, close } = await incident();
    await close();
    const before = requests();
    const replay = await engine.replay({ agent: baseline, cassette: await engine.cassette(runId), mode: 'strict' });
    expect(replay).toMatchObject({ mode: 'replay:strict', status: 'failed', error: { code: 'VALIDATION_FAILED' } });
    expect(replay.steps.every((step) => step.provenance === 'recorded')).toBe(true);
    expect(requests()).toBe(before);
    const fixed = await engine.replay({ agent: planAware, cassette: await engine.cassette(runId), mode: 'strict' });
    expect(fixed.status).toBe('diverged');
    expect(fixed.divergence?.message).toMatch(/model#0 \(step 1\).*changed: system/);
  });

  it('forks at step 4 with the corrected article: credited 20 EUR, the credit simulated by name', async () => {
    const { engine, runId, close } = await incident();
    await close();
    const live = world(INCIDENT_DAY);
    const fork = await engine.fork({
      parentRunId: runId,
      atStep: 4,
      agent: baseline,
      world: live.world,
      override: {
        kind: 'tool-result',
        output: { articles: [{ article_id: 'KB-31', text: 'Agents may credit up to 20 EUR per ticket on Basic.' }] },
      },
      sideEffects: { tools: { issue_credit: 'simulate' } },
    });
    await live.world.close?.();
    expect(fork).toMatchObject({ status: 'completed', outcome: { action: 'credit', credit: 20, plan: 'basic' } });
    expect(fork.ownSteps.map((step) => step.provenance)).toEqual(['override', 'live', 'simulated', 'live']);
  });

  it('moves the run to an OpenAI model with a fork (--model): the rest goes through the OpenAI SDK', async () => {
    const { engine, runId, close } = await incident();
    await close();
    const live = world(INCIDENT_DAY);
    const fork = await engine.fork({
      parentRunId: runId,
      atStep: 1,
      agent: baseline,
      world: live.world,
      override: { kind: 'model', model: 'gpt-5-mini' },
      sideEffects: { tools: { issue_credit: 'simulate' } },
    });
    await live.world.close?.();
    const models = fork.ownSteps.filter((step) => step.kind === 'model').map((step) => modelResponse(step.response));
    expect(models.map((response) => response.model)).toEqual(['gpt-5-mini', 'gpt-5-mini', 'gpt-5-mini', 'gpt-5-mini']);
    // Chat Completions has no reasoning to give back, and the Anthropic parameters stayed Anthropic's.
    expect(models.every((response) => response.content.every((part) => part.type !== 'thinking'))).toBe(true);
    expect(fork.error).toMatchObject({ code: 'VALIDATION_FAILED', step: 7 });
  });

  it('records what a move to OpenAI leaves out of the prefix: the reasoning Chat Completions cannot take', async () => {
    const { engine, runId, close } = await incident();
    await close();
    const live = world(INCIDENT_DAY);
    const fork = await engine.fork({
      parentRunId: runId,
      atStep: 3,
      agent: baseline,
      world: live.world,
      override: { kind: 'model', model: 'gpt-5-mini' },
      sideEffects: { tools: { issue_credit: 'simulate' } },
    });
    await live.world.close?.();
    expect(fork.parent.changes).toEqual([
      { path: 'model', before: '"claude-sonnet-4-5"', after: '"gpt-5-mini"' },
      { path: 'messages (left out for gpt-5-mini)', before: '1 thinking', after: '(absent)' },
    ]);
  });

  it('meets the fixed knowledge base on 6 March: the plan-aware and the baseline build both stay within the limit', async () => {
    const engine = createEngine({ store: memoryStore() });
    for (const agent of [baseline, planAware]) {
      const live = world(FIXED_DAY);
      const run = await engine.record({ agent, world: live.world, input: { ticketId: 'T-2041' } });
      await live.world.close?.();
      expect(run).toMatchObject({ status: 'completed', outcome: { credit: 20 } });
    }
  });

  it('closes its emulator with the world: the port answers no more', async () => {
    const live = world(INCIDENT_DAY);
    const engine = createEngine({ store: memoryStore() });
    await engine.record({ agent: baseline, world: live.world, input: { ticketId: 'T-1001' } });
    const url = live.started[0]?.url ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await live.world.close?.();
    await expect(fetch(`${url}/v1/messages`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it(`refuses ${LIVE_SWITCH}=1 without ANTHROPIC_API_KEY as the world opens, before any run exists`, () => {
    let caught: unknown;
    try {
      openSupportWorld({ at: INCIDENT_DAY, seed: 1, latencyMs: 0 }, { env: { [LIVE_SWITCH]: '1' } });
    } catch (error) {
      caught = error;
    }
    expect(isForkpointError(caught, 'USAGE')).toBe(true);
    expect(String(caught)).toMatch(/needs ANTHROPIC_API_KEY/);
    expect(scenario.inputFlags).toHaveProperty('ticket');
  });
});
