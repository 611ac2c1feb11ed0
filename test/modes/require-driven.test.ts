import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { memoryStore } from '../../src/store/index.js';
import { divergenceReport, runSuite, verifyRun } from '../../src/workflows/index.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';
import { WRAPPED_AGENT, useWrappedRuns } from '../wrap/support/wrapped-runs.js';

// A driven agent's build and world: what a caller who took the wrapped run for a driven one would pass.
const agent = testAgent();
const world = () => syntheticWorld({ toolCalls: 1 });

describe('what needs the driven machine, on a wrapped loop’s runs', () => {
  const engine = createEngine({ store: memoryStore() });
  const wrapped = useWrappedRuns(engine);

  /** Expects `attempt` to be refused with LOOP_NOT_DRIVEN naming the run and `instead`, and nothing written. */
  const refused = async (attempt: () => Promise<unknown>, runId: string, instead: RegExp) => {
    const before = (await engine.listRuns()).length;
    const requests = wrapped.emulator.received().length;
    const error: unknown = await attempt().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: 'LOOP_NOT_DRIVEN', details: { runId } });
    const { message } = error as Error;
    expect(message).toContain(
      `run ${runId} is a recording of a loop forkpoint does not drive (agent "${WRAPPED_AGENT}")`,
    );
    expect(message).toMatch(instead);
    expect(message).not.toContain('\n');
    expect((await engine.listRuns()).length).toBe(before);
    expect(wrapped.emulator.received().length).toBe(requests);
  };

  it('refuses a fork from a restored state, naming the fork:prefix session that does it by prefix replay', async () => {
    const { runId } = wrapped.runs.recorded;
    await refused(
      () =>
        engine.fork({
          parentRunId: runId,
          atStep: 4,
          override: { kind: 'tool-merge', patch: { invoiceTotal: 2050 } },
          agent,
          world: world(),
        }),
      runId,
      new RegExp(
        `fork it by prefix replay, with a fork:prefix session over your loop \\(createSession\\(\\{ mode: 'fork:prefix', agent: "${WRAPPED_AGENT}", source: "${runId}", atStep, override \\}\\)\\)$`,
      ),
    );
  });

  it('refuses a fork of a fork by prefix replay, which is a wrapped run too', async () => {
    const { runId } = wrapped.runs.forked;
    const fork = () =>
      engine.fork({
        parentRunId: runId,
        atStep: 6,
        override: { kind: 'tool-error', message: 'down' },
        agent,
        world: world(),
      });
    await refused(fork, runId, /mode: 'fork:prefix'/);
  });

  it('refuses a resume, naming the replay:fidelity session that goes live where the recording ends', async () => {
    const { runId } = wrapped.runs.recorded;
    await refused(
      () => engine.resume({ runId, agent, world: world() }),
      runId,
      /continue it by prefix replay, with a replay:fidelity session .*onMiss: 'live'/,
    );
  });

  it('refuses a driven replay of its cassette, full or structural, naming the replay:strict session', async () => {
    const { runId } = wrapped.runs.recorded;
    const full = await engine.cassette(runId);
    expect(full.loop).toBe('wrapped');
    const structural = await engine.cassette(runId, 'structural');
    expect(structural.loop).toBe('wrapped');
    const session = /replay it through your loop, with a replay:strict session .*describeWrappedCassettes/;
    await refused(() => engine.replay({ agent, cassette: full, mode: 'strict' }), runId, session);
    await refused(() => engine.replay({ agent, cassette: full, mode: 'fidelity' }), runId, session);
    await refused(() => engine.replay({ agent, cassette: structural, mode: 'structural' }), runId, session);
  });

  it('refuses a re-execution, naming the record session that runs the loop again', async () => {
    const { runId } = wrapped.runs.recorded;
    await refused(
      () => engine.reexecute({ sourceRunId: runId, agent, world: world() }),
      runId,
      new RegExp(
        `only your loop can run its input again: with a record session over it .*mode: 'record', agent: "${WRAPPED_AGENT}"`,
      ),
    );
  });

  it('refuses a verification and a divergence report, before either arm runs', async () => {
    const { runId } = wrapped.runs.recorded;
    const verify = () => verifyRun(engine, { runId, candidate: agent, baseline: agent, mode: 'replay' });
    await refused(verify, runId, /verify a fix by replaying it through each build of your loop/);
    const report = () => divergenceReport(engine, { runIds: [runId], plan: () => ({ agent, world: () => world() }) });
    await refused(report, runId, /only your loop can run its input again/);
  });

  it('lets a suite report a wrapped cassette as invalid, saying to replay it through the loop', async () => {
    const cassette = await engine.cassette(wrapped.runs.recorded.runId);
    const suite = await runSuite(engine, { cassettes: [{ name: 'wrapped.json', cassette }], agent, keepRuns: false });
    expect(suite).toMatchObject({ invalid: 1, passed: 0 });
    expect(suite.cases[0]?.status).toBe('invalid');
    expect(suite.cases[0]?.error?.code).toBe('LOOP_NOT_DRIVEN');
    expect(suite.cases[0]?.error?.message).toMatch(/forkpoint\/testing's describeWrappedCassettes/);
  });

  it('still reads the checkpoint of a wrapped step: the conversation the loop sent, and the tool results since', async () => {
    const checkpoint = await engine.checkpoint(wrapped.runs.recorded.runId, 4);
    // After the OCR (step 4): the loop's second request (claim asked, claim read), and the OCR's answer to send next.
    expect(checkpoint.context.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(checkpoint.context.pending).toEqual([]);
    expect(checkpoint.context.results).toMatchObject([
      { type: 'tool_result', content: { documentId: 'DOC-4', invoiceTotal: 205 } },
    ]);
    expect(checkpoint.context.step).toBe(4);
  });
});
