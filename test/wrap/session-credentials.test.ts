import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, wrapLanguageModel } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { memoryStore, sqliteStore } from '../../src/store/index.js';
import type { ProviderEmulator } from '../../src/testing/index.js';
import type { Session } from '../../src/wrap/index.js';
import { tempFolder } from '../support/cli-harness.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { startOpenAIEmulator } from '../support/emulators/openai-emulator.js';
import { LOOP_MODEL } from './support/claim-world.js';
import { anthropicThrough, askOnce, forkpointErrorIn, textAnswer } from './support/session-fixtures.js';

// A session keys a request by what changes its meaning, never by who sent it: the credentials the SDKs send
// reach no byte of the store, and an anthropic-beta header, which changes what the API does, is in the key.

const API_KEY = 'sk-canary-Zq81XvT0pLwR';
const AUTHORIZATION = 'Bearer canary-auth-Hm42JdYc';
const PROMPT = 'Summarise claim CLM-CANARY-4471.';
const FILES = ['', '-wal', '-shm'];

let anthropic: ProviderEmulator;
let openai: ProviderEmulator;
beforeAll(async () => {
  anthropic = await startAnthropicEmulator();
  openai = await startOpenAIEmulator('chat');
});
afterAll(async () => {
  await anthropic.close();
  await openai.close();
});

/** Every header value a request carried, lower-cased names. */
const headerValues = (headers: Headers): string[] => [...headers.entries()].map(([name, value]) => `${name}: ${value}`);

/** One call through each wrapping, each with the credentials; gives the header lines the provider was sent. */
const LOOPS: ReadonlyArray<{ name: string; run: (session: Session, sent: string[]) => Promise<void> }> = [
  {
    name: 'Anthropic middleware',
    run: async (session, sent) => {
      anthropic.script([{ kind: 'response', response: textAnswer('noted') }]);
      const client = new Anthropic({
        apiKey: API_KEY,
        baseURL: anthropic.url,
        maxRetries: 0,
        defaultHeaders: { authorization: AUTHORIZATION },
        // Inside the session's: it sees what `next` sends on.
        middleware: [
          session.anthropic(),
          (request, next) => {
            sent.push(...headerValues(request.headers));
            return next(request);
          },
        ],
      });
      await askOnce(client, PROMPT);
    },
  },
  {
    name: 'OpenAI fetch',
    run: async (session, sent) => {
      openai.script([{ kind: 'response', response: textAnswer('noted') }]);
      const spy: typeof fetch = (input, init) => {
        sent.push(...headerValues(new Headers(init?.headers)));
        return fetch(input, init);
      };
      const client = new OpenAI({
        apiKey: API_KEY,
        baseURL: `${openai.url}/v1`,
        maxRetries: 0,
        defaultHeaders: { 'x-api-key': API_KEY },
        fetch: session.fetch(spy),
      });
      await client.chat.completions.create({ model: LOOP_MODEL, messages: [{ role: 'user', content: PROMPT }] });
    },
  },
  {
    name: 'AI SDK middleware',
    run: async (session, sent) => {
      anthropic.script([{ kind: 'response', response: textAnswer('noted') }]);
      const spy: typeof fetch = (input, init) => {
        sent.push(...headerValues(new Headers(init?.headers)));
        return fetch(input, init);
      };
      const provider = createAnthropic({
        baseURL: `${anthropic.url}/v1`,
        apiKey: API_KEY,
        headers: { authorization: AUTHORIZATION },
        fetch: spy,
      });
      const model = wrapLanguageModel({ model: provider(LOOP_MODEL), middleware: session.aiSdk() });
      // Call-level headers reach the middleware in its params, beside the request it keys.
      await generateText({
        model,
        prompt: PROMPT,
        maxRetries: 0,
        maxOutputTokens: 64,
        headers: { 'x-api-key': API_KEY, authorization: AUTHORIZATION },
      });
    },
  },
];

describe('credentials', () => {
  it('reach no byte of a SQLite store file, its log, nor any read or plaintext export of the runs', async () => {
    const folder = tempFolder('forkpoint-credentials-');
    try {
      const path = join(folder.path, 'wrapped.db');
      const store = sqliteStore({ path });
      const engine = createEngine({ store });
      const readable: string[] = [];
      const everySent: string[] = [];
      for (const loop of LOOPS) {
        const sent: string[] = [];
        const session = await engine.session({ mode: 'record', agent: `credential-loop (${loop.name})` });
        await loop.run(session, sent);
        const run = await session.close();
        expect(run.status, loop.name).toBe('completed');
        // The SDK did send a credential (the Anthropic SDK sends an authorization header in place of its key).
        expect(
          [API_KEY, AUTHORIZATION].some((secret) => sent.join('\n').includes(secret)),
          loop.name,
        ).toBe(true);
        everySent.push(...sent);
        const exported = await engine.exportCassette(run.runId, { plaintext: true });
        expect(exported.text, loop.name).toContain('CLM-CANARY-4471');
        readable.push(
          exported.text,
          JSON.stringify(await engine.getRun(run.runId)),
          JSON.stringify(await engine.checkpoint(run.runId, 1)),
        );
      }
      await store.close();
      // Both were sent, so the checks below are of something that was there to leak.
      expect(everySent.join('\n')).toContain(API_KEY);
      expect(everySent.join('\n')).toContain(AUTHORIZATION);
      const disk = FILES.map((suffix) => (existsSync(path + suffix) ? readFileSync(path + suffix) : Buffer.alloc(0)));
      for (const secret of [API_KEY, AUTHORIZATION, AUTHORIZATION.slice('Bearer '.length)]) {
        for (const bytes of disk) expect(bytes.includes(secret), secret).toBe(false);
        for (const text of readable) expect(text.includes(secret), secret).toBe(false);
      }
    } finally {
      folder.cleanup();
    }
  });
});

describe('the anthropic-beta header', () => {
  const engine = createEngine({ store: memoryStore() });
  const agent = 'beta-loop';
  const recordWith = async (beta: string | undefined) => {
    anthropic.script([{ kind: 'response', response: textAnswer('hello') }]);
    const session = await engine.session({ mode: 'record', agent });
    await askOnce(
      anthropicThrough(
        session,
        anthropic.url,
        beta === undefined ? {} : { defaultHeaders: { 'anthropic-beta': beta } },
      ),
    );
    return session.close();
  };

  it('is part of the key: clients that differ only by it record different request hashes', async () => {
    const none = await recordWith(undefined);
    const caching = await recordWith('prompt-caching-2024-07-31');
    const files = await recordWith('files-api-2025-04-14');
    const hashes = [none, caching, files].map((run) => run.steps[0]?.requestHash);
    expect(new Set(hashes).size).toBe(3);
    // The same beta again is the same request.
    expect((await recordWith('prompt-caching-2024-07-31')).steps[0]?.requestHash).toBe(hashes[1]);
  });

  it('makes a strict replay with another beta diverge at model#0, and one with the same beta replay', async () => {
    const recorded = await recordWith('prompt-caching-2024-07-31');
    const replay = async (beta: string) => {
      const before = anthropic.received().length;
      const session = await engine.session({ mode: 'replay:strict', agent, source: recorded.runId });
      const client = anthropicThrough(session, anthropic.url, { defaultHeaders: { 'anthropic-beta': beta } });
      const answer = await askOnce(client).then(
        () => undefined,
        (error: unknown) => error,
      );
      const run = await session.close();
      expect(anthropic.received().length - before).toBe(0);
      return { answer, run };
    };
    const other = await replay('files-api-2025-04-14');
    expect(forkpointErrorIn(other.answer)?.code).toBe('REPLAY_DIVERGED');
    expect(other.run.status).toBe('diverged');
    expect(other.run.divergence).toMatchObject({ kind: 'model', index: 0, classification: 'changed' });
    const same = await replay('prompt-caching-2024-07-31');
    expect(same.answer).toBeUndefined();
    expect(same.run.status).toBe('completed');
  });
});
