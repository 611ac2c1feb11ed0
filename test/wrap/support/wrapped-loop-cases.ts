import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../../../src/analysis/index.js';
import { createEngine } from '../../../src/engine/index.js';
import { memoryStore } from '../../../src/store/index.js';
import type { ProviderEmulator } from '../../../src/testing/index.js';
import type { Session } from '../../../src/wrap/index.js';
import type { LoopOptions } from './anthropic-claim-loop.js';
import { CLAIM_SYSTEM, claimTools, correctedAnswers, decisionOf, incidentAnswers } from './claim-world.js';

/** A loop forkpoint did not write, with the SDK it runs over and how a session wraps both. */
export interface WrappedLoopSubject {
  readonly name: string;
  readonly start: () => Promise<ProviderEmulator>;
  /** Runs the loop once, its client and tools wrapped by `session`; gives its final text. */
  readonly run: (
    session: Session,
    url: string,
    tools: ReturnType<typeof claimTools>,
    options: LoopOptions,
  ) => Promise<string>;
  /**
   * What the SDK mints itself on every run, from its own clock and ids, in the events the loop reads (the AI
   * SDK's message ids and the timestamp of a step whose provider gave none): masked before two runs' events
   * are compared. Everything the provider's stream said is compared as it is.
   */
  readonly sdkMinted?: (event: unknown) => unknown;
}

const STEPS = ['model#0', 'fetch_claim#0', 'model#1', 'ocr_document#0', 'model#2', 'estimate_repair#0', 'model#3'];

/**
 * The cases every wrapped loop passes: record, strict replay with no request
 * and no tool call, a prompt change caught at model#0 on `system`, a
 * streamed run replayed with the same events, a fork by prefix replay at the
 * OCR step with the corrected total, and the two branches compared.
 */
export function describeWrappedLoop(subject: WrappedLoopSubject): void {
  describe(`${subject.name}, wrapped by a session`, () => {
    let emulator: ProviderEmulator;
    beforeAll(async () => {
      emulator = await subject.start();
    });
    afterAll(async () => {
      await emulator.close();
    });
    const engine = createEngine({ store: memoryStore() });
    const agent = `claims-loop (${subject.name})`;
    const script = (answers: ReturnType<typeof incidentAnswers>) => {
      emulator.script(answers.map((response) => ({ kind: 'response', response })));
    };
    const record = async (options: LoopOptions = {}) => {
      script(incidentAnswers());
      const tools = claimTools();
      const session = await engine.session({ mode: 'record', agent, input: { claimId: 'CLM-91077' } });
      const text = await subject.run(session, emulator.url, tools, options);
      return { run: await session.close({ outcome: decisionOf(text) }), tools };
    };
    let recorded = '';

    it('records every call as a step, live', async () => {
      const before = emulator.received().length;
      const { run, tools } = await record();
      recorded = run.runId;
      expect(run.mode).toBe('record');
      expect(run.status).toBe('completed');
      expect(run.outcome).toEqual({ decision: 'deny' });
      expect(run.steps.map((step) => `${step.kind}#${step.index}`)).toEqual(STEPS);
      expect(run.steps.every((step) => step.provenance === 'live')).toBe(true);
      expect(tools.total()).toBe(3);
      expect(emulator.received().length - before).toBe(4);
    });

    it('replays strictly: 0 HTTP requests, 0 tool calls, the same decision', async () => {
      const before = emulator.received().length;
      const tools = claimTools();
      const session = await engine.session({ mode: 'replay:strict', agent, source: recorded });
      const text = await subject.run(session, emulator.url, tools, {});
      const run = await session.close({ outcome: decisionOf(text) });
      expect(run.mode).toBe('replay:strict');
      expect(run.status).toBe('completed');
      expect(run.outcome).toEqual({ decision: 'deny' });
      expect(run.steps.map((step) => step.requestHash)).toEqual(
        (await engine.getRun(recorded)).steps.map((step) => step.requestHash),
      );
      expect(run.steps.every((step) => step.provenance === 'recorded')).toBe(true);
      expect(emulator.received().length - before).toBe(0);
      expect(tools.total()).toBe(0);
    });

    it('catches a prompt change as a divergence at model#0, with the diff on system', async () => {
      const before = emulator.received().length;
      const tools = claimTools();
      const session = await engine.session({ mode: 'replay:strict', agent, source: recorded });
      await subject.run(session, emulator.url, tools, { system: `${CLAIM_SYSTEM} Be brief.` }).catch(() => undefined);
      const run = await session.close();
      expect(run.status).toBe('diverged');
      expect(run.divergence).toMatchObject({ kind: 'model', index: 0, classification: 'changed' });
      expect(run.divergence?.changed).toContain('system');
      expect(run.divergence?.diff.some((change) => change.path === 'system')).toBe(true);
      expect(emulator.received().length - before).toBe(0);
      expect(tools.total()).toBe(0);
    });

    it('replays a streamed run with the same events the recording saw', async () => {
      const recordedEvents: unknown[] = [];
      const { run: streamed } = await record({ stream: true, onEvent: (event) => recordedEvents.push(event) });
      expect(streamed.steps.map((step) => `${step.kind}#${step.index}`)).toEqual(STEPS);
      expect(recordedEvents.length).toBeGreaterThan(8);
      const before = emulator.received().length;
      const replayedEvents: unknown[] = [];
      const tools = claimTools();
      const session = await engine.session({ mode: 'replay:strict', agent, source: streamed.runId });
      const text = await subject.run(session, emulator.url, tools, {
        stream: true,
        onEvent: (event) => replayedEvents.push(event),
      });
      const replay = await session.close({ outcome: decisionOf(text) });
      expect(replay.status).toBe('completed');
      const seen = subject.sdkMinted ?? ((event: unknown) => event);
      expect(replayedEvents.map(seen)).toEqual(recordedEvents.map(seen));
      expect(emulator.received().length - before).toBe(0);
      expect(tools.total()).toBe(0);
      // The hash is over the request, not the stream: streamed and whole, the loop asked the same.
      expect(streamed.steps.map((step) => step.requestHash)).toEqual(
        (await engine.getRun(recorded)).steps.map((step) => step.requestHash),
      );
    });

    it('forks by prefix replay at the OCR step with the corrected total, and compares the branches', async () => {
      script(correctedAnswers());
      const before = emulator.received().length;
      const tools = claimTools();
      const session = await engine.session({
        mode: 'fork:prefix',
        agent,
        source: recorded,
        atStep: 4,
        override: { kind: 'tool-merge', patch: { invoiceTotal: 2050 } },
      });
      const text = await subject.run(session, emulator.url, tools, {});
      const fork = await session.close({ outcome: decisionOf(text) });
      expect(fork.mode).toBe('fork:prefix');
      expect(fork.status).toBe('completed');
      expect(fork.outcome).toEqual({ decision: 'approve' });
      expect(fork.parent).toMatchObject({ runId: recorded, atStep: 4 });
      expect(fork.steps.map((step) => step.provenance)).toEqual([
        'inherited',
        'inherited',
        'inherited',
        'override',
        'live',
        'live',
        'live',
      ]);
      // The prefix came from the recording: only the two calls after the fork went out, and one tool ran.
      expect(emulator.received().length - before).toBe(2);
      expect(tools.calls).toEqual({ fetch_claim: 0, ocr_document: 0, estimate_repair: 1 });
      const comparison = compareRuns(
        await engine.getRun(recorded),
        await engine.getRun(fork.runId),
        (step) => step.kind,
      );
      expect(comparison.firstDivergence).toEqual({ step: 4, kind: 'ocr_document', index: 0, on: 'response' });
      expect(comparison.steps.slice(0, 3).every((step) => step.same)).toBe(true);
      expect(comparison.a.outcome).toEqual({ decision: 'deny' });
      expect(comparison.b.outcome).toEqual({ decision: 'approve' });
    });
  });
}
