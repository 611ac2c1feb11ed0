import { initialTransition, transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { AgentBuild, BuildStateSpec } from '../../src/agent/index.js';
import type { ApprovalAnswer, ToolUsePart } from '../../src/conversation/index.js';
import type { AgentEvent, AgentMachineInput } from '../../src/machine/index.js';
import { awaitingOf, createAgentMachine } from '../../src/machine/index.js';
import { isJsonObject } from '../../src/json/index.js';
import { testAgent, toolTurn } from '../support/test-agents.js';

const start: AgentMachineInput = {
  input: { n: 1 },
  system: 'You echo things.',
  model: 'test-model',
  firstMessage: 'go',
};
const answer = (approved: boolean, note: string | null = null): ApprovalAnswer => ({
  approved,
  by: 'dana',
  at: '2026-03-04T10:00:00.000Z',
  note,
  requestHash: '0123456789abcdef',
});

/** A machine of `build` after the model asked for `write` then `echo` in one turn. */
function askedToWrite(build: AgentBuild, input: AgentMachineInput = start) {
  const machine = createAgentMachine(build);
  const [first] = initialTransition(machine, input);
  const response = toolTurn([
    { name: 'write', input: { amount: 500 } },
    { name: 'echo', input: { n: 2 } },
  ]);
  const [snapshot] = transition(machine, first, { type: 'model.responded', response });
  const [write, echo] = response.content.filter((part): part is ToolUsePart => part.type === 'tool_use');
  const send = (current: typeof snapshot, event: AgentEvent) => transition(machine, current, event)[0];
  return { snapshot, write: write!, echo: echo!, send };
}

const writesWait = testAgent({
  tools: [
    { name: 'echo', description: 'echoes', inputSchema: { type: 'object' }, readOnly: true },
    {
      name: 'write',
      description: 'writes',
      inputSchema: { type: 'object' },
      readOnly: false,
      requiresApproval: ({ input }) => typeof input.amount === 'number' && input.amount > 100,
    },
  ],
});

describe('the machine, before a call that needs approval', () => {
  it('waits at rest, naming the call, and an answer for another call is no observation of it', () => {
    const { snapshot, write, echo, send } = askedToWrite(writesWait);
    expect(snapshot.value).toBe('awaitingApproval');
    expect(awaitingOf(snapshot)).toEqual({ type: 'approval', kind: 'approval', index: 0, call: write });
    const ignored = send(snapshot, { type: 'approval.answered', call: echo, answer: answer(true) });
    expect(ignored.context.step).toBe(snapshot.context.step);
    // A tool result is not an answer: the machine waits for the person, not for the tool.
    const early = send(snapshot, { type: 'tool.returned', call: write, response: { output: {}, isError: false } });
    expect(early.context.step).toBe(snapshot.context.step);
  });

  it('lets an approved call be made, holding the hash it was approved for until its result comes', () => {
    const { snapshot, write, send } = askedToWrite(writesWait);
    const approved = send(snapshot, { type: 'approval.answered', call: write, answer: answer(true) });
    expect(approved.value).toBe('awaitingTools');
    expect(approved.context).toMatchObject({
      step: 2,
      calls: { model: 1, approval: 1 },
      approved: { toolUseId: write.id, requestHash: '0123456789abcdef' },
    });
    expect(awaitingOf(approved)).toMatchObject({ type: 'tool', kind: 'write', index: 0 });
    const made = send(approved, {
      type: 'tool.returned',
      call: write,
      response: { output: { ok: 1 }, isError: false },
    });
    expect(made.context.approved).toBeNull();
    // The next call of the batch is read-only: it asks nobody.
    expect(awaitingOf(made)).toMatchObject({ type: 'tool', kind: 'echo' });
  });

  it('stands a rejection as the call result the model sees, and moves on to the next call', () => {
    const { snapshot, write, echo, send } = askedToWrite(writesWait);
    const rejected = send(snapshot, { type: 'approval.answered', call: write, answer: answer(false, 'too much') });
    expect(rejected.value).toBe('awaitingTools');
    expect(rejected.context.results).toEqual([
      {
        type: 'tool_result',
        toolUseId: write.id,
        content: { rejected: true, by: 'dana', reason: 'too much' },
        isError: true,
      },
    ]);
    expect(awaitingOf(rejected)).toMatchObject({ type: 'tool', kind: 'echo', call: echo });
  });

  it('fails the run with HOOK_FAILED when the approval rule throws', () => {
    const throwing = testAgent({
      requiresApproval: () => {
        throw new Error('the rule has a bug');
      },
    });
    const { snapshot } = askedToWrite(throwing);
    expect(snapshot.value).toBe('failed');
    expect(snapshot.context.error).toMatchObject({
      code: 'HOOK_FAILED',
      message: expect.stringContaining('the rule has a bug'),
    });
  });
});

/** A build that counts the tool results it has seen, and asks approval for a write after the first. */
const counting: BuildStateSpec = {
  version: 1,
  initial: (input) => ({ seen: 0, n: input.n ?? null }),
  update: (state, observation) =>
    observation.kind === 'tool' && isJsonObject(state) && typeof state.seen === 'number'
      ? { ...state, seen: state.seen + 1 }
      : state,
};

describe('the build state', () => {
  it('takes each observation in before the hooks run, which read it', () => {
    const seenByGuard: unknown[] = [];
    const build = testAgent({
      state: counting,
      guardToolResult: ({ state }) => {
        seenByGuard.push(state);
        return { action: 'continue' };
      },
      requiresApproval: ({ call, state }) => call.name === 'write' && isJsonObject(state) && state.seen === 0,
    });
    const { snapshot, write, send } = askedToWrite(build, {
      ...start,
      buildState: { version: 1, value: { seen: 0, n: 1 } },
    });
    expect(snapshot.value).toBe('awaitingApproval');
    const approved = send(snapshot, { type: 'approval.answered', call: write, answer: answer(true) });
    const made = send(approved, { type: 'tool.returned', call: write, response: { output: {}, isError: false } });
    expect(made.context.buildState).toEqual({ version: 1, value: { seen: 1, n: 1 } });
    expect(seenByGuard).toEqual([{ seen: 1, n: 1 }]);
  });

  it('fails the run with HOOK_FAILED when its update throws or returns what is not JSON', () => {
    for (const update of [
      () => {
        throw new Error('ledger full');
      },
      () => ({ at: new Date(0) }) as never,
    ]) {
      const build = testAgent({ state: { ...counting, update } });
      const { snapshot } = askedToWrite(build, { ...start, buildState: { version: 1, value: { seen: 0 } } });
      expect(snapshot.value).toBe('failed');
      expect(snapshot.context.error?.code).toBe('HOOK_FAILED');
      expect(snapshot.context.buildState).toEqual({ version: 1, value: { seen: 0 } });
    }
  });
});
