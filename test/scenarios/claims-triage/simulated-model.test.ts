import { describe, expect, test } from 'vitest';
import { openClaimsWorld, simulatedModel } from '../../../scenarios/claims-triage/index.js';
import { parseDecision } from '../../../scenarios/claims-triage/outcome.js';
import type {
  Message,
  ModelParams,
  ModelRequest,
  ModelResponse,
  ToolResultPart,
} from '../../../src/conversation/index.js';
import type { ModelProvider } from '../../../src/world/index.js';
import type { Outcome } from '../../../src/agent/index.js';
import { ForkpointError } from '../../../src/errors/index.js';
import { textOf, toolUsesOf } from '../../../src/conversation/index.js';

const OPUS = 'claude-opus-5';
const SONNET = 'claude-sonnet-5';

function firstRequest(model: string, params: ModelParams = { maxTokens: 2048 }, claimId = 'CLM-91077'): ModelRequest {
  return {
    model,
    system: 'You are the claims-triage assistant of a motor insurer.',
    messages: [{ role: 'user', content: [{ type: 'text', text: `Triage claim ${claimId} and write your decision.` }] }],
    tools: [],
    params,
  };
}

/**
 * A minimal agent loop over the simulated model and the real claims tools:
 * enough to test the model's behaviour across a whole conversation without
 * the engine.
 */
async function converse(
  provider: ModelProvider,
  options: { claimId: string; at: string; model?: string },
): Promise<ModelResponse[]> {
  const tools = openClaimsWorld({ at: options.at, seed: 0, latencyMs: 0 }).tools;
  const request = firstRequest(options.model ?? OPUS, { maxTokens: 2048 }, options.claimId);
  const messages: Message[] = [...request.messages];
  const responses: ModelResponse[] = [];
  for (let turn = 0; turn < 12; turn++) {
    const response = await provider.respond({ ...request, messages: [...messages] });
    responses.push(response);
    const assistant: Message = { role: 'assistant', content: response.content };
    messages.push(assistant);
    const uses = toolUsesOf(assistant);
    if (uses.length === 0) return responses;
    const results: ToolResultPart[] = [];
    for (const use of uses) {
      const handler = tools[use.name];
      if (handler === undefined) throw new Error(`the model asked for an unknown tool ${use.name}`);
      results.push({ type: 'tool_result', toolUseId: use.id, content: await handler(use.input), isError: false });
    }
    messages.push({ role: 'user', content: results });
  }
  throw new Error('the model reached no decision in 12 turns');
}

function decisionOf(responses: readonly ModelResponse[]): Outcome {
  const last = responses.at(-1);
  if (last === undefined) throw new Error('no responses');
  const parsed = parseDecision(textOf(last.content));
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.outcome;
}

async function rejection(promise: Promise<unknown>): Promise<ForkpointError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ForkpointError) return error;
    throw error;
  }
  throw new Error('the request was accepted');
}

/** The share of first-call texts, one per seed, that differ from the most common one. */
async function variedShare(seeds: number, variation?: number): Promise<number> {
  const counts = new Map<string, number>();
  for (let seed = 0; seed < seeds; seed++) {
    const provider = simulatedModel(variation === undefined ? { seed } : { seed, variation });
    const text = textOf((await provider.respond(firstRequest(OPUS))).content);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return 1 - Math.max(...counts.values()) / seeds;
}

describe('sampling parameters', () => {
  test.each<[string, ModelParams]>([
    ['temperature', { maxTokens: 2048, temperature: 0.2 }],
    ['topP', { maxTokens: 2048, topP: 0.9 }],
    ['topK', { maxTokens: 2048, topK: 40 }],
  ])('claude-opus-5 rejects %s with a 400-style PROVIDER_REJECTED error', async (_name, params) => {
    const error = await rejection(simulatedModel({ seed: 1 }).respond(firstRequest(OPUS, params)));
    expect(error.code).toBe('PROVIDER_REJECTED');
    expect(error.message).toMatch(/^400\b/);
  });

  test('claude-opus-5 answers a request without sampling parameters', async () => {
    const response = await simulatedModel({ seed: 1 }).respond(firstRequest(OPUS));
    expect(response.model).toBe(OPUS);
    expect(toolUsesOf({ role: 'assistant', content: response.content }).map((use) => use.name)).toEqual([
      'fetch_claim',
    ]);
  });

  test('claude-sonnet-5 accepts temperature, topP and topK', async () => {
    const response = await simulatedModel({ seed: 1 }).respond(
      firstRequest(SONNET, { maxTokens: 2048, temperature: 0.2, topP: 0.9, topK: 40 }),
    );
    expect(response.model).toBe(SONNET);
    expect(response.content.length).toBeGreaterThan(0);
  });

  test('an unknown model id is PROVIDER_REJECTED', async () => {
    const error = await rejection(simulatedModel({ seed: 1 }).respond(firstRequest('claude-haiku-9')));
    expect(error.code).toBe('PROVIDER_REJECTED');
    expect(error.message).toContain('claude-haiku-9');
  });
});

describe('the triage policy', () => {
  test('first asks for the claim named in the user message', async () => {
    const response = await simulatedModel({ seed: 3 }).respond(firstRequest(OPUS, { maxTokens: 2048 }, 'CLM-91103'));
    const uses = toolUsesOf({ role: 'assistant', content: response.content });
    expect(uses.map((use) => ({ name: use.name, input: use.input }))).toEqual([
      { name: 'fetch_claim', input: { claim_id: 'CLM-91103' } },
    ]);
    expect(response.stopReason).toBe('tool_use');
  });

  test('ends with a parseable decision and stop reason end_turn', async () => {
    const responses = await converse(simulatedModel({ seed: 3 }), { claimId: 'CLM-91077', at: '2026-03-09' });
    expect(responses.at(-1)?.stopReason).toBe('end_turn');
    expect(decisionOf(responses)).toMatchObject({ decision: 'approve', payout: expect.any(Number) });
  });

  test("claude-opus-5's decision turn carries a thinking block with an opaque signature", async () => {
    const responses = await converse(simulatedModel({ seed: 3 }), { claimId: 'CLM-91077', at: '2026-03-09' });
    const thinking = responses.at(-1)?.content.find((part) => part.type === 'thinking');
    expect(thinking).toMatchObject({
      type: 'thinking',
      thinking: expect.any(String),
      signature: expect.stringMatching(/^\w{16,}$/),
    });
  });

  test('claude-sonnet-5 words its turns differently from claude-opus-5 under the same seed', async () => {
    const opus = await simulatedModel({ seed: 5 }).respond(firstRequest(OPUS));
    const sonnet = await simulatedModel({ seed: 5 }).respond(firstRequest(SONNET));
    expect(textOf(sonnet.content)).not.toBe(textOf(opus.content));
  });

  test('claude-sonnet-5 chooses differently from claude-opus-5 on the folded form read under OCR v1', async () => {
    const opus = decisionOf(await converse(simulatedModel({ seed: 5 }), { claimId: 'CLM-91077', at: '2026-03-04' }));
    const sonnet = decisionOf(
      await converse(simulatedModel({ seed: 5 }), { claimId: 'CLM-91077', at: '2026-03-04', model: SONNET }),
    );
    expect(sonnet.decision).not.toBe(opus.decision);
  });
});

describe('seeded sampling', () => {
  test('the same seed gives identical responses to the same sequence of requests', async () => {
    const first = await converse(simulatedModel({ seed: 42 }), { claimId: 'CLM-91077', at: '2026-03-09' });
    const second = await converse(simulatedModel({ seed: 42 }), { claimId: 'CLM-91077', at: '2026-03-09' });
    expect(first.length).toBeGreaterThan(2);
    expect(second).toEqual(first);
  });

  test('tool_use ids differ between seeds', async () => {
    const ids = new Set<string>();
    for (let seed = 0; seed < 50; seed++) {
      const response = await simulatedModel({ seed }).respond(firstRequest(OPUS));
      for (const use of toolUsesOf({ role: 'assistant', content: response.content })) ids.add(use.id);
    }
    expect(ids.size).toBe(50);
  });

  test('response ids differ between the calls of one run', async () => {
    const responses = await converse(simulatedModel({ seed: 9 }), { claimId: 'CLM-91077', at: '2026-03-09' });
    expect(new Set(responses.map((response) => response.id)).size).toBe(responses.length);
  });

  test('by default about one first call in ten varies its wording (200 seeds)', async () => {
    const share = await variedShare(200);
    expect(share).toBeGreaterThanOrEqual(0.04);
    expect(share).toBeLessThanOrEqual(0.2);
  });

  test('with variation 0 no call varies its wording', async () => {
    expect(await variedShare(200, 0)).toBe(0);
  });

  test('the variation share is configurable: 0.5 varies about half the calls', async () => {
    const share = await variedShare(200, 0.5);
    expect(share).toBeGreaterThanOrEqual(0.35);
    expect(share).toBeLessThanOrEqual(0.65);
  });

  test('wording varies between seeds but the decision on a clear claim does not', async () => {
    const decisions = new Set<string>();
    const finalTexts = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const responses = await converse(simulatedModel({ seed }), { claimId: 'CLM-91077', at: '2026-03-09' });
      decisions.add(JSON.stringify(decisionOf(responses)));
      finalTexts.add(responses.map((response) => textOf(response.content)).join('|'));
    }
    expect(decisions.size).toBe(1);
    expect(finalTexts.size).toBeGreaterThan(1);
  });

  test('on a borderline form the choice varies rarely: most seeds approve, a few refer', async () => {
    const counts = { approve: 0, refer: 0, other: 0 };
    for (let seed = 0; seed < 60; seed++) {
      const { decision } = decisionOf(
        await converse(simulatedModel({ seed }), { claimId: 'CLM-91091', at: '2026-03-09' }),
      );
      if (decision === 'approve') counts.approve++;
      else if (decision === 'refer') counts.refer++;
      else counts.other++;
    }
    expect(counts.other).toBe(0);
    expect(counts.refer).toBeGreaterThan(0);
    expect(counts.approve).toBeGreaterThan(counts.refer);
  });
});
