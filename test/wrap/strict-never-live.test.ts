import fc from 'fast-check';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import type { JsonObject } from '../../src/json/index.js';
import { isJsonObject } from '../../src/json/index.js';
import { memoryStore } from '../../src/store/index.js';
import type { ProviderEmulator } from '../../src/testing/index.js';
import type { AiSdkTool, MiddlewareRequest, Session } from '../../src/wrap/index.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { startOpenAIEmulator } from '../support/emulators/openai-emulator.js';
import { openAIClaimLoop } from './support/openai-claim-loop.js';
import { claimTools, decisionOf, incidentAnswers } from './support/claim-world.js';
import { recordClaimRun, wrappedClaimTools } from './support/session-fixtures.js';
import type { Probe, RecordedCall, WireProbe } from './support/wire-probes.js';
import { bodiesOf, faithful, initBody, inputsOf, toolProbe, wireProbe } from './support/wire-probes.js';

// The strict promise: whatever a loop sends through a strict session (the recorded requests, changed ones, other
// paths and methods, bodies that are not JSON, tool calls with any input), in any order, one at a time or at once,
// the real fetch, the middleware's `next` and the tool functions are never called, and every call either gets the
// recorded answer or a typed error.

const BASE = 'http://127.0.0.1:9';
const TOOLS = ['fetch_claim', 'ocr_document', 'estimate_repair', 'refund'];

let anthropic: ProviderEmulator;
let openai: ProviderEmulator;
const engine = createEngine({ store: memoryStore() });
const recordings: Record<'anthropic' | 'openai', { runId: string; agent: string; calls: RecordedCall[] }> = {
  anthropic: { runId: '', agent: 'claims-loop (anthropic)', calls: [] },
  openai: { runId: '', agent: 'claims-loop (openai)', calls: [] },
};

// The calls of the incident, in the order the loop made them: a model request, then the tool it asked for.
function callsOf(bodies: readonly JsonObject[], path: string): RecordedCall[] {
  const inputs: Array<[string, JsonObject]> = [
    ['fetch_claim', { claimId: 'CLM-91077' }],
    ['ocr_document', { documentId: 'DOC-4' }],
    ['estimate_repair', { invoiceTotal: 205 }],
  ];
  return bodies.flatMap((body, i): RecordedCall[] => {
    const tool = inputs[i];
    const model: RecordedCall = { type: 'model', path, body };
    return tool === undefined ? [model] : [model, { type: 'tool', tool: tool[0], input: tool[1] }];
  });
}

beforeAll(async () => {
  anthropic = await startAnthropicEmulator();
  openai = await startOpenAIEmulator('chat');
  recordings.anthropic.runId = await recordClaimRun(engine, anthropic, recordings.anthropic.agent);
  recordings.anthropic.calls = callsOf(anthropic.received().filter(isJsonObject), '/v1/messages');
  openai.script(incidentAnswers().map((response) => ({ kind: 'response', response })));
  const session = await engine.session({ mode: 'record', agent: recordings.openai.agent });
  const text = await openAIClaimLoop(
    new OpenAI({ apiKey: 'test-key', baseURL: `${openai.url}/v1`, maxRetries: 0, fetch: session.fetch(fetch) }),
    wrappedClaimTools(session, claimTools()),
  );
  recordings.openai.runId = (await session.close({ outcome: decisionOf(text) })).runId;
  recordings.openai.calls = callsOf(openai.received().filter(isJsonObject), '/v1/chat/completions');
});
afterAll(async () => {
  await anthropic.close();
  await openai.close();
});

/** What reached the live world through a strict session: it must stay zero. */
interface Reached {
  inner: number;
  next: number;
  tools: number;
}

/** Sends one probe through the session; resolves with what it answered, never rejecting. */
async function send(
  session: Session,
  probe: Probe,
  reached: Reached,
  tools: Record<string, (input: never) => Promise<unknown>>,
) {
  try {
    if (probe.type === 'tool') return { answer: await tools[probe.tool]!(probe.input as never) };
    return { answer: await sendWire(session, probe, reached) };
  } catch (error) {
    return { error };
  }
}

async function sendWire(session: Session, probe: WireProbe, reached: Reached): Promise<unknown> {
  const url = `${BASE}${probe.path}`;
  const init = { method: probe.method, headers: probe.headers, body: initBody(probe.body) ?? null };
  if (probe.route === 'middleware') {
    const request: MiddlewareRequest = {
      url,
      method: probe.method,
      headers: new Headers(probe.headers),
      body: init.body,
    };
    return session.anthropic()(request, () => {
      reached.next += 1;
      return Promise.resolve(new Response('{}'));
    });
  }
  const inner: typeof fetch = () => {
    reached.inner += 1;
    return Promise.resolve(new Response('{}'));
  };
  const wrapped = session.fetch(inner);
  if (probe.route === 'fetch-url') return wrapped(new URL(url), init);
  if (probe.route === 'fetch-request') {
    const bodied = probe.method.toUpperCase() !== 'GET' && init.body !== null;
    return wrapped(new Request(url, bodied ? init : { method: probe.method, headers: probe.headers }));
  }
  return wrapped(url, init);
}

const probesFor = (calls: readonly RecordedCall[]) =>
  fc.record({
    // How many of the recorded calls the loop makes first, as recorded: the session then serves a prefix.
    prefix: fc.nat({ max: calls.length }),
    rest: fc.array(fc.oneof(wireProbe(bodiesOf(calls)), toolProbe(TOOLS, inputsOf(calls))), { maxLength: 10 }),
    atOnce: fc.boolean(),
  });

describe('a strict session', () => {
  for (const source of ['anthropic', 'openai'] as const) {
    it(`never calls the real fetch, next or a tool, whatever a loop sends (a recording through ${source})`, async () => {
      const { runId, agent, calls } = recordings[source];
      await fc.assert(
        fc.asyncProperty(probesFor(calls), async ({ prefix, rest, atOnce }) => {
          const reached: Reached = { inner: 0, next: 0, tools: 0 };
          const session = await engine.session({ mode: 'replay:strict', agent, source: runId });
          const real = (name: string) => () => {
            reached.tools += 1;
            return { called: name };
          };
          // One of them wrapped as an AI SDK tool's execute, which a strict session wraps the same way.
          const aiSdkTool: AiSdkTool = { execute: real('refund') };
          const { refund } = session.aiSdkTools({ refund: aiSdkTool });
          const tools = {
            ...Object.fromEntries(
              TOOLS.filter((name) => name !== 'refund').map((name) => [
                name,
                session.tool<JsonObject, unknown>(name, real(name)),
              ]),
            ),
            refund: (input: never) => Promise.resolve(refund.execute?.(input, {} as never)),
          };
          const probes = [...calls.slice(0, prefix).map(faithful), ...rest];
          const answers = atOnce
            ? await Promise.all(probes.map((probe) => send(session, probe, reached, tools)))
            : await probes.reduce<Promise<Array<{ answer?: unknown; error?: unknown }>>>(
                async (done, probe) => [...(await done), await send(session, probe, reached, tools)],
                Promise.resolve([]),
              );
          const run = await session.close();
          expect(reached).toEqual({ inner: 0, next: 0, tools: 0 });
          for (const answered of answers) {
            if ('error' in answered) expect(isForkpointError(answered.error), String(answered.error)).toBe(true);
            else if (answered.answer instanceof Response) expect(answered.answer.status).toBe(200);
          }
          // The recorded prefix, sent one call at a time, is served as recorded.
          if (!atOnce) expect(answers.slice(0, prefix).every((answered) => !('error' in answered))).toBe(true);
          expect(['completed', 'diverged', 'failed']).toContain(run.status);
        }),
        { numRuns: 120, plugins: [fc.timeout(1000)] },
      );
    }, 120_000);
  }
});
