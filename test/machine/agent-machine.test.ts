import { initialTransition, transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { AgentBuild } from '../../src/agent/index.js';
import type { AgentEvent } from '../../src/machine/index.js';
import type { ToolResponse, ToolUsePart } from '../../src/conversation/index.js';
import { awaitingOf, createAgentMachine } from '../../src/machine/index.js';
import { finalTurn, testAgent, toolTurn } from '../support/test-agents.js';

const start = { input: { n: 1 }, system: 'You echo things.', model: 'test-model', firstMessage: 'Run task 1' };

function begin(build: AgentBuild = testAgent()) {
  const machine = createAgentMachine(build);
  const [snapshot] = initialTransition(machine, start);
  return { machine, snapshot };
}

const ok = (output: unknown): ToolResponse => ({ output: output as ToolResponse['output'], isError: false });
const toolUses = (response: ReturnType<typeof toolTurn>): ToolUsePart[] =>
  response.content.filter((part): part is ToolUsePart => part.type === 'tool_use');

describe('the agent machine (pure, no I/O)', () => {
  it('starts awaiting the model with the first user message and no steps', () => {
    const { snapshot } = begin();
    expect(snapshot.value).toBe('awaitingModel');
    expect(snapshot.context.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Run task 1' }] }]);
    expect(snapshot.context.step).toBe(0);
    expect(awaitingOf(snapshot)).toEqual({ type: 'model', kind: 'model', index: 0 });
  });

  it('moves to awaitingTools when the model asks for tools, in listed order', () => {
    const { machine, snapshot } = begin();
    const response = toolTurn([
      { name: 'echo', input: { a: 1 } },
      { name: 'write', input: { b: 2 } },
    ]);
    const [next] = transition(machine, snapshot, { type: 'model.responded', response });
    expect(next.value).toBe('awaitingTools');
    expect(next.context.step).toBe(1);
    expect(next.context.calls).toEqual({ model: 1 });
    expect(next.context.pending.map((call) => call.name)).toEqual(['echo', 'write']);
    expect(awaitingOf(next)).toMatchObject({ kind: 'echo', index: 0 });
  });

  it('continues a paused turn (pause_turn) with the next model call, the paused content sent back as it came', () => {
    const { machine, snapshot } = begin();
    const paused = { ...finalTurn('Searching the policy archive'), stopReason: 'pause_turn' as const };
    const [next] = transition(machine, snapshot, { type: 'model.responded', response: paused });
    expect(next.value).toBe('awaitingModel');
    expect(awaitingOf(next)).toEqual({ type: 'model', kind: 'model', index: 1 });
    expect(next.context.messages.at(-1)).toEqual({ role: 'assistant', content: paused.content });
    const [done] = transition(machine, next, { type: 'model.responded', response: finalTurn('{"ok":true}') });
    expect(done.value).toBe('done');
    expect(done.context.step).toBe(2);
  });

  it.each(['refusal', 'content_filter'] as const)(
    'ends the run with MODEL_REFUSED when the model stops with %s, whatever its text would parse to',
    (stopReason) => {
      const { machine, snapshot } = begin();
      const response = { ...finalTurn('{"ok":true}'), stopReason, providerStopReason: stopReason };
      const [next] = transition(machine, snapshot, { type: 'model.responded', response });
      expect(next.value).toBe('failed');
      expect(next.context.error).toMatchObject({ code: 'MODEL_REFUSED', step: 1 });
      expect(next.context.error?.message).toMatch(new RegExp(`declined to answer \\(${stopReason}\\)`));
    },
  );

  it('collects a batch of tool results into one user message, then awaits the model', () => {
    const { machine, snapshot } = begin();
    const response = toolTurn([
      { name: 'echo', input: { a: 1 } },
      { name: 'echo', input: { a: 2 } },
    ]);
    const [calls, first, second] = [toolUses(response), 0, 1];
    let [state] = transition(machine, snapshot, { type: 'model.responded', response });
    [state] = transition(machine, state, { type: 'tool.returned', call: calls[first]!, response: ok({ r: 1 }) });
    expect(state.value).toBe('awaitingTools');
    expect(state.context.messages).toHaveLength(2);
    expect(awaitingOf(state)).toMatchObject({ kind: 'echo', index: 1 });
    [state] = transition(machine, state, { type: 'tool.returned', call: calls[second]!, response: ok({ r: 2 }) });
    expect(state.value).toBe('awaitingModel');
    expect(state.context.step).toBe(3);
    expect(state.context.calls).toEqual({ model: 1, echo: 2 });
    expect(state.context.messages).toHaveLength(3);
    const toolMessage = state.context.messages[2]!;
    expect(toolMessage.role).toBe('user');
    expect(toolMessage.content.map((part) => (part.type === 'tool_result' ? part.toolUseId : part.type))).toEqual(
      calls.map((call) => call.id),
    );
    expect(awaitingOf(state)).toEqual({ type: 'model', kind: 'model', index: 1 });
  });

  it('ignores a result for a call it is not waiting for', () => {
    const { machine, snapshot } = begin();
    const response = toolTurn([
      { name: 'echo', input: {} },
      { name: 'write', input: {} },
    ]);
    const [state] = transition(machine, snapshot, { type: 'model.responded', response });
    const [after] = transition(machine, state, {
      type: 'tool.returned',
      call: toolUses(response)[1]!,
      response: ok(1),
    });
    expect(after.context).toBe(state.context);
  });

  it('ends in done with the parsed outcome when the model writes a valid one', () => {
    const { machine, snapshot } = begin();
    const [state] = transition(machine, snapshot, {
      type: 'model.responded',
      response: finalTurn('{"ok":true,"n":3}'),
    });
    expect(state.value).toBe('done');
    expect(state.status).toBe('done');
    expect(state.context.outcome).toEqual({ ok: true, n: 3 });
    expect(awaitingOf(state)).toBeUndefined();
  });

  it('fails with VALIDATION_FAILED at the step when the outcome is invalid or unparseable', () => {
    const { machine, snapshot } = begin();
    const [invalid] = transition(machine, snapshot, { type: 'model.responded', response: finalTurn('{"ok":false}') });
    expect(invalid.value).toBe('failed');
    expect(invalid.context.error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'the outcome says ok: false',
      step: 1,
    });
    const [garbled] = transition(machine, snapshot, { type: 'model.responded', response: finalTurn('no json here') });
    expect(garbled.context.error?.code).toBe('VALIDATION_FAILED');
    expect(garbled.context.error?.message).toMatch(/could not be parsed/);
  });

  it('fails with STEP_CAP_REACHED when the cap is hit without an outcome', () => {
    const { machine, snapshot } = begin(testAgent({ stepCap: 2 }));
    const response = toolTurn([{ name: 'echo', input: {} }]);
    let [state] = transition(machine, snapshot, { type: 'model.responded', response });
    expect(state.value).toBe('awaitingTools');
    [state] = transition(machine, state, { type: 'tool.returned', call: toolUses(response)[0]!, response: ok(1) });
    expect(state.value).toBe('failed');
    expect(state.context.error).toMatchObject({ code: 'STEP_CAP_REACHED', step: 2 });
  });

  it('lets the build guard end the run on a tool result, without another model call', () => {
    const build = testAgent({
      build: 'guarded',
      guardToolResult: ({ response }) =>
        JSON.stringify(response.output).includes('bad')
          ? { action: 'finish', outcome: { decision: 'refer' } }
          : { action: 'continue' },
    });
    const { machine, snapshot } = begin(build);
    const response = toolTurn([
      { name: 'echo', input: {} },
      { name: 'echo', input: {} },
    ]);
    let [state] = transition(machine, snapshot, { type: 'model.responded', response });
    [state] = transition(machine, state, {
      type: 'tool.returned',
      call: toolUses(response)[0]!,
      response: ok('bad reading'),
    });
    expect(state.value).toBe('done');
    expect(state.context.outcome).toEqual({ decision: 'refer' });
    expect(state.context.step).toBe(2);
  });

  it('fails the run, not the machine, when a hook throws', () => {
    const build = testAgent({
      build: 'throwing',
      guardToolResult: () => {
        throw new Error('boom');
      },
    });
    const { machine, snapshot } = begin(build);
    const response = toolTurn([{ name: 'echo', input: {} }]);
    let [state] = transition(machine, snapshot, { type: 'model.responded', response });
    [state] = transition(machine, state, { type: 'tool.returned', call: toolUses(response)[0]!, response: ok(1) });
    expect(state.value).toBe('failed');
    expect(state.context.error).toEqual({ code: 'HOOK_FAILED', message: 'a harness hook threw: boom', step: 2 });
  });

  it('applies a fork override of the system prompt or model before the next request, as no step', () => {
    const { machine, snapshot } = begin();
    const event: AgentEvent = { type: 'fork.overridden', system: 'New prompt', model: 'other-model' };
    const [state] = transition(machine, snapshot, event);
    expect(state.value).toBe('awaitingModel');
    expect(state.context).toMatchObject({ system: 'New prompt', model: 'other-model', step: 0 });
  });

  it('never mutates the snapshot it was given', () => {
    const { machine, snapshot } = begin();
    const before = structuredClone(snapshot.context);
    transition(machine, snapshot, { type: 'model.responded', response: toolTurn([{ name: 'echo', input: {} }]) });
    expect(snapshot.context).toEqual(before);
  });
});
