import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ModelResponse } from '../../../src/conversation/index.js';
import { ForkpointError } from '../../../src/errors/index.js';
import type { Engine } from '../../../src/engine/index.js';
import type { JsonObject } from '../../../src/json/index.js';
import type { ProviderEmulator } from '../../../src/testing/index.js';
import type { Session } from '../../../src/wrap/index.js';
import type { LoopTool } from './anthropic-claim-loop.js';
import { anthropicClaimLoop } from './anthropic-claim-loop.js';
import { claimTools, decisionOf, incidentAnswers, LOOP_MODEL } from './claim-world.js';

/** How a test client is made: its key, its extra headers, the SDK's own retries (0 unless a test says). */
export interface ClientOptions {
  readonly apiKey?: string;
  readonly maxRetries?: number;
  readonly defaultHeaders?: Readonly<Record<string, string>>;
}

/** An Anthropic client of the real SDK pointed at an emulator, its every HTTP attempt through the session's middleware. */
export function anthropicThrough(session: Session, url: string, options: ClientOptions = {}): Anthropic {
  return new Anthropic({
    apiKey: options.apiKey ?? 'test-key',
    baseURL: url,
    maxRetries: options.maxRetries ?? 0,
    middleware: [session.anthropic()],
    ...(options.defaultHeaders === undefined ? {} : { defaultHeaders: { ...options.defaultHeaders } }),
  });
}

/** An OpenAI client of the real SDK pointed at an emulator, its `fetch` the session's over the real one. */
export function openAIThrough(session: Session, url: string, options: ClientOptions = {}): OpenAI {
  return new OpenAI({
    apiKey: options.apiKey ?? 'test-key',
    baseURL: `${url}/v1`,
    maxRetries: options.maxRetries ?? 0,
    fetch: session.fetch(fetch),
    ...(options.defaultHeaders === undefined ? {} : { defaultHeaders: { ...options.defaultHeaders } }),
  });
}

/** The claims tools wrapped by a session; those named in `sideEffecting` are wrapped without `readOnly`. */
export function wrappedClaimTools(
  session: Session,
  tools: ReturnType<typeof claimTools>,
  sideEffecting: readonly string[] = [],
): Record<string, LoopTool> {
  const wrap = (name: 'fetch_claim' | 'ocr_document' | 'estimate_repair') =>
    session.tool<JsonObject, unknown>(name, tools[name], { readOnly: !sideEffecting.includes(name) });
  return {
    fetch_claim: wrap('fetch_claim'),
    ocr_document: wrap('ocr_document'),
    estimate_repair: wrap('estimate_repair'),
  };
}

/** Records the incident of the claims loop over the Anthropic SDK as `agent`; gives the run's id. */
export async function recordClaimRun(engine: Engine, emulator: ProviderEmulator, agent: string): Promise<string> {
  emulator.script(incidentAnswers().map((response) => ({ kind: 'response', response })));
  const session = await engine.session({ mode: 'record', agent, input: { claimId: 'CLM-91077' } });
  const text = await anthropicClaimLoop(
    anthropicThrough(session, emulator.url),
    wrappedClaimTools(session, claimTools()),
  );
  const run = await session.close({ outcome: decisionOf(text) });
  if (run.status !== 'completed') throw new Error(`the recording ended ${run.status}`);
  return run.runId;
}

/** One model call of a loop that asks once and stops: the smallest loop a session wraps. */
export async function askOnce(client: Anthropic, text = 'Say hello.'): Promise<Anthropic.Message> {
  return client.messages.create({ model: LOOP_MODEL, max_tokens: 64, messages: [{ role: 'user', content: text }] });
}

/** The ForkpointError in an error or its `cause` chain (an SDK wraps what its `fetch` threw), if any. */
export function forkpointErrorIn(error: unknown): ForkpointError | undefined {
  const seen = new Set<unknown>();
  let current = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    if (current instanceof ForkpointError) return current;
    seen.add(current);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The ForkpointError `work` rejects with (directly or as a cause); fails when it resolves or rejects with another. */
export async function failureOf(work: () => Promise<unknown>): Promise<ForkpointError> {
  try {
    await work();
  } catch (error) {
    const found = forkpointErrorIn(error);
    if (found !== undefined) return found;
    throw new Error(`rejected with no ForkpointError in its causes: ${String(error)}`, { cause: error });
  }
  throw new Error('resolved, where a ForkpointError was expected');
}

let answered = 0;
/** A model answer that ends the turn with `text`, with a fresh id, as a provider mints one. */
export function textAnswer(text: string): ModelResponse {
  answered += 1;
  return {
    id: `msg_fixture_${answered}`,
    model: LOOP_MODEL,
    content: [{ type: 'text', text }],
    stopReason: 'end_turn',
    usage: { inputTokens: 10, outputTokens: 3 },
  };
}
