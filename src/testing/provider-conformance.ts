import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../engine/index.js';
import type { Engine, RecordResult } from '../engine/index.js';
import { memoryStore } from '../store/index.js';
import type { ModelProvider } from '../world/index.js';
import {
  SCRIPTED_USAGE,
  conformanceAgent,
  conformanceWorld,
  finalTurn,
  lookupTurn,
  thinkingTurn,
} from './provider-cases.js';
import type { EmulatedAnswer, ProviderEmulator, ProviderSubject } from './provider-subject.js';

/**
 * The behaviour every model provider adapter must have, as vitest tests run
 * through the adapter's real SDK against an emulator of the provider's HTTP
 * API on 127.0.0.1: a multi-step tool loop, parallel tool calls, reasoning
 * whose signature goes back verbatim, a refusal, `max_tokens`, a 400 (the
 * provider's message kept), a 429 then success through the SDK's own retry, a
 * 500, and a network drop mid-run that a resume continues. Every recorded run
 * is replayed strictly, and the emulator counts that the replay asked nothing.
 * A case the provider's wire format cannot express is left out, and the suite's
 * title says which.
 *
 * @example
 * ```ts
 * import { describeProviderConformance } from 'forkpoint/testing';
 * describeProviderConformance('anthropic', { start: startEmulator, provider: (url, o) => fromAnthropic(new Anthropic({ baseURL: url, ...o })), model: 'claude-opus-5', supports: { thinking: true, refusal: true } });
 * ```
 */
export function describeProviderConformance(name: string, subject: ProviderSubject): void {
  const missing = [
    subject.supports.thinking ? null : 'no reasoning round trip',
    subject.supports.refusal ? null : 'no refusal',
  ].filter((part) => part !== null);
  const title = `Provider conformance: ${name}${missing.length === 0 ? '' : ` (${missing.join(', ')}: its wire format has none)`}`;
  describe(title, () => {
    let emulator: ProviderEmulator;
    beforeAll(async () => {
      emulator = await subject.start();
    });
    afterAll(async () => {
      await emulator.close();
    });
    const { model } = subject;
    const agent = conformanceAgent(model);
    const provider = (maxRetries = 0): ModelProvider => subject.provider(emulator.url, { maxRetries });
    const engine = (): Engine => createEngine({ store: memoryStore() });

    /** Records the agent against `answers`, and how many HTTP requests that took. */
    const record = async (on: Engine, answers: readonly EmulatedAnswer[], maxRetries = 0) => {
      emulator.script(answers);
      const before = emulator.received().length;
      const run = await on.record({ agent, world: conformanceWorld(provider(maxRetries)), input: { key: 'k1' } });
      return { run, requests: emulator.received().length - before };
    };
    /** Replays a run strictly and returns how many HTTP requests the replay made (none, if it is strict). */
    const replayedRequests = async (on: Engine, run: RecordResult) => {
      emulator.script([]);
      const before = emulator.received().length;
      const replay = await on.replay({ agent, cassette: await on.cassette(run.runId), mode: 'strict' });
      expect(replay.steps.every((step) => step.provenance === 'recorded')).toBe(true);
      expect(replay.status).toBe(run.status);
      return emulator.received().length - before;
    };
    const response = (answer: RecordResult['steps'][number] | undefined) =>
      answer?.response as { stopReason?: string; usage?: unknown } | undefined;

    it('records a multi-step tool loop through the SDK, the usage as reported, and a strict replay asks nothing', async () => {
      const on = engine();
      const { run, requests } = await record(on, [
        { kind: 'response', response: lookupTurn(model, [{ id: 'call_one', key: 'k1' }]) },
        { kind: 'response', response: lookupTurn(model, [{ id: 'call_two', key: 'k2' }]) },
        { kind: 'response', response: finalTurn(model, '{"answer":"value of k2"}') },
      ]);
      expect(run.status).toBe('completed');
      expect(run.outcome).toEqual({ answer: 'value of k2' });
      expect(run.steps.map((step) => step.kind)).toEqual(['model', 'lookup', 'model', 'lookup', 'model']);
      expect(requests).toBe(3);
      expect(response(run.steps[0])?.usage).toMatchObject(SCRIPTED_USAGE);
      expect(await replayedRequests(on, run)).toBe(0);
    });

    it('runs parallel tool calls in order, and sends both results back under their call ids', async () => {
      const on = engine();
      const { run } = await record(on, [
        {
          kind: 'response',
          response: lookupTurn(model, [
            { id: 'call_left', key: 'left' },
            { id: 'call_right', key: 'right' },
          ]),
        },
        { kind: 'response', response: finalTurn(model, '{"answer":"both"}') },
      ]);
      expect(run.status).toBe('completed');
      expect(run.steps.map((step) => step.kind)).toEqual(['model', 'lookup', 'lookup', 'model']);
      const second = JSON.stringify(emulator.received().at(-1));
      for (const text of ['call_left', 'call_right', 'value of left', 'value of right']) expect(second).toContain(text);
      expect(await replayedRequests(on, run)).toBe(0);
    });

    if (subject.supports.thinking) {
      it('keeps reasoning with its signature, and sends the signature back verbatim in the next request', async () => {
        const on = engine();
        const { run } = await record(on, [
          { kind: 'response', response: thinkingTurn(model, 'sig-0f3a9c-verbatim', 'call_think') },
          { kind: 'response', response: finalTurn(model, '{"answer":"archived"}') },
        ]);
        expect(run.status).toBe('completed');
        expect(JSON.stringify(run.steps[0]?.response)).toContain('sig-0f3a9c-verbatim');
        expect(JSON.stringify(emulator.received().at(-1))).toContain('sig-0f3a9c-verbatim');
        expect(await replayedRequests(on, run)).toBe(0);
      });
    }

    if (subject.supports.refusal) {
      it('ends the run with MODEL_REFUSED when the provider reports a refusal', async () => {
        const on = engine();
        const { run } = await record(on, [
          { kind: 'response', response: finalTurn(model, 'I cannot help with that.', 'refusal') },
        ]);
        expect(run.status).toBe('failed');
        expect(run.error).toMatchObject({ code: 'MODEL_REFUSED', step: 1 });
        expect(await replayedRequests(on, run)).toBe(0);
      });
    }

    it('records a turn cut at max_tokens as such', async () => {
      const on = engine();
      const { run } = await record(on, [
        { kind: 'response', response: finalTurn(model, '{"answer": "trunc', 'max_tokens') },
      ]);
      expect(response(run.steps[0])?.stopReason).toBe('max_tokens');
      expect(run.error).toMatchObject({ code: 'VALIDATION_FAILED', step: 1 });
      expect(await replayedRequests(on, run)).toBe(0);
    });

    it("fails the run with PROVIDER_REJECTED on a 400, with the provider's own message", async () => {
      const { run, requests } = await record(engine(), [
        { kind: 'error', status: 400, message: 'temperature: this model does not support it' },
      ]);
      expect(run.status).toBe('failed');
      expect(run.error).toMatchObject({ code: 'PROVIDER_REJECTED', step: 1 });
      expect(run.error?.message).toContain('temperature: this model does not support it');
      expect(requests).toBe(1);
    });

    it("goes on after a 429 through the SDK's own retry", async () => {
      const on = engine();
      const { run, requests } = await record(
        on,
        [
          { kind: 'error', status: 429, message: 'rate limited' },
          { kind: 'response', response: finalTurn(model, '{"answer":"after the wait"}') },
        ],
        2,
      );
      expect(run.status).toBe('completed');
      expect(requests).toBe(2);
      expect(await replayedRequests(on, run)).toBe(0);
    });

    it('stops the run with PROVIDER_FAILED on a 500, every step before it kept', async () => {
      const { run } = await record(engine(), [
        { kind: 'response', response: lookupTurn(model, [{ id: 'call_before', key: 'k1' }]) },
        { kind: 'error', status: 500, message: 'overloaded' },
      ]);
      expect(run.status).toBe('failed');
      expect(run.error).toMatchObject({ code: 'PROVIDER_FAILED', step: 3 });
      expect(run.steps).toHaveLength(2);
    });

    it('stops on a network drop mid-run, and a resume continues it to the end', async () => {
      const on = engine();
      const { run } = await record(on, [
        { kind: 'response', response: lookupTurn(model, [{ id: 'call_drop', key: 'k1' }]) },
        { kind: 'drop' },
      ]);
      expect(run.error).toMatchObject({ code: 'PROVIDER_FAILED', step: 3 });
      emulator.script([{ kind: 'response', response: finalTurn(model, '{"answer":"resumed"}') }]);
      const resumed = await on.resume({ runId: run.runId, agent, world: conformanceWorld(provider()) });
      expect(resumed.status).toBe('completed');
      expect(resumed.outcome).toEqual({ answer: 'resumed' });
      expect(resumed.steps.map((step) => step.attempt)).toEqual([1, 1, 2]);
      emulator.script([]);
      const before = emulator.received().length;
      const replay = await on.replay({ agent, cassette: await on.cassette(run.runId), mode: 'strict' });
      expect(replay.status).toBe('completed');
      expect(emulator.received().length - before).toBe(0);
    });
  });
}
