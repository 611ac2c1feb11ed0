import { initialTransition, transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { AgentBuild } from '../../src/agent/index.js';
import type { AgentEvent } from '../../src/machine/index.js';
import type { ToolResponse, ToolUsePart } from '../../src/conversation/index.js';
import { awaitingOf, createAgentMachine } from '../../src/machine/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { syntheticWorld, testAgent, toolTurn } from '../support/test-agents.js';

const start = { input: { n: 1 }, system: 'You echo things.', model: 'test-model', firstMessage: 'Run task 1' };
const timeout: ToolResponse = { output: { error: 'echo timed out' }, isError: true };
const ok = (value: number): ToolResponse => ({ output: { value }, isError: false });

function afterToolTurn(build: AgentBuild, calls = 1) {
  const machine = createAgentMachine(build);
  const [first] = initialTransition(machine, start);
  const response = toolTurn(Array.from({ length: calls }, (_, n) => ({ name: 'echo', input: { n } })));
  const [snapshot] = transition(machine, first, { type: 'model.responded', response });
  const uses = response.content.filter((part): part is ToolUsePart => part.type === 'tool_use');
  const send = (current: typeof snapshot, event: AgentEvent) => transition(machine, current, event)[0];
  return { snapshot, uses, send };
}

describe('the harness hooks a build may define', () => {
  const retrying = testAgent({
    retryTool: ({ response, attempt }) => JSON.stringify(response.output).includes('timed out') && attempt <= 2,
  });

  it('retries a failed call as a step of its own that the model never sees, then appends the good result', () => {
    const { snapshot, uses, send } = afterToolTurn(retrying);
    const call = uses[0]!;
    const retried = send(snapshot, { type: 'tool.returned', call, response: timeout });
    expect(retried.value).toBe('awaitingTools');
    expect(retried.context.step).toBe(2);
    expect(retried.context.failedAttempts).toBe(1);
    expect(retried.context.messages).toHaveLength(2);
    expect(awaitingOf(retried)).toEqual({ type: 'tool', kind: 'echo', index: 1, call });
    const settled = send(retried, { type: 'tool.returned', call, response: ok(7) });
    expect(settled.value).toBe('awaitingModel');
    expect(settled.context.step).toBe(3);
    expect(settled.context.failedAttempts).toBe(0);
    expect(settled.context.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: call.id, content: { value: 7 }, isError: false }],
    });
  });

  it('hands the error to the model once the retry policy gives up', () => {
    const { snapshot, uses, send } = afterToolTurn(retrying);
    const call = uses[0]!;
    let current = snapshot;
    for (let i = 0; i < 3; i++) current = send(current, { type: 'tool.returned', call, response: timeout });
    expect(current.value).toBe('awaitingModel');
    expect(current.context.step).toBe(4);
    expect(current.context.messages.at(-1)?.content).toEqual([
      { type: 'tool_result', toolUseId: call.id, content: { error: 'echo timed out' }, isError: true },
    ]);
  });

  it('never retries without the hook', () => {
    const { snapshot, uses, send } = afterToolTurn(testAgent());
    const next = send(snapshot, { type: 'tool.returned', call: uses[0]!, response: timeout });
    expect(next.value).toBe('awaitingModel');
    expect(next.context.failedAttempts).toBeUndefined();
  });

  it('lets the build render what the model sees of a result, and fails the run on a non-JSON rendering', () => {
    const rendering = testAgent({ renderToolResult: ({ response }) => ({ rendered: response.output }) });
    const { snapshot, uses, send } = afterToolTurn(rendering);
    const next = send(snapshot, { type: 'tool.returned', call: uses[0]!, response: ok(3) });
    expect(next.context.messages.at(-1)?.content[0]).toMatchObject({ content: { rendered: { value: 3 } } });

    const broken = testAgent({ renderToolResult: () => ({ when: new Date(0) }) as never });
    const bad = afterToolTurn(broken);
    const failed = bad.send(bad.snapshot, { type: 'tool.returned', call: bad.uses[0]!, response: ok(3) });
    expect(failed.value).toBe('failed');
    expect(failed.context.error?.code).toBe('HOOK_FAILED');
  });

  it('appends each result as its own turn when the build asks for one turn per result', () => {
    const each = testAgent({ toolResultTurns: 'each' });
    const { snapshot, uses, send } = afterToolTurn(each, 2);
    const one = send(snapshot, { type: 'tool.returned', call: uses[0]!, response: ok(1) });
    expect(one.value).toBe('awaitingTools');
    expect(one.context.messages).toHaveLength(3);
    const both = send(one, { type: 'tool.returned', call: uses[1]!, response: ok(2) });
    expect(both.value).toBe('awaitingModel');
    expect(both.context.messages.slice(2).map((message) => message.content.length)).toEqual([1, 1]);
  });

  it('records, checkpoints and replays a run with one turn per result, step by step', async () => {
    const each = testAgent({ toolResultTurns: 'each' });
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    const run = await engine.record({
      agent: each,
      world: syntheticWorld({ toolCalls: 4, batch: 2 }),
      input: { n: 1 },
    });
    expect(run.status).toBe('completed');
    expect((await engine.checkpoint(run.runId, run.steps.length)).context.messages).toHaveLength(1 + 2 + 4 + 1);
    const replay = await engine.replay({ agent: each, cassette: await engine.cassette(run.runId), mode: 'strict' });
    expect(replay).toMatchObject({ status: 'completed', divergence: null });
    const batched = await engine.replay({
      agent: testAgent(),
      cassette: await engine.cassette(run.runId),
      mode: 'strict',
    });
    expect(batched).toMatchObject({ status: 'diverged', divergence: { kind: 'model', index: 1 } });
  });

  it('puts the hooks it uses into the code hash and leaves builds without them unchanged', () => {
    expect(retrying.codeHash).not.toBe(testAgent().codeHash);
    expect(testAgent({ toolResultTurns: 'each' }).codeHash).not.toBe(testAgent().codeHash);
    expect(testAgent().codeHash).toBe(testAgent().codeHash);
  });
});
