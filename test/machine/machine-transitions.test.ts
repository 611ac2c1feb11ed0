import { initialTransition, transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/machine/index.js';
import type { ToolUsePart } from '../../src/conversation/index.js';
import { createAgentMachine, initialSnapshot, nextSnapshot } from '../../src/machine/index.js';
import { finalTurn, testAgent, toolTurn } from '../support/test-agents.js';

const start = { input: { n: 1 }, system: 'You echo things.', model: 'test-model', firstMessage: 'Run task 1' };

// What a caller reads of a snapshot: the state, the context and how the machine stands.
const seen = (snapshot: ReturnType<typeof initialSnapshot>) => ({
  value: snapshot.value,
  status: snapshot.status,
  context: snapshot.context,
  output: snapshot.output,
  error: snapshot.error,
});

describe("the machine's transitions over one inert scope", () => {
  it("give xstate's own snapshots, step after step, over one machine shared by many runs", () => {
    const machine = createAgentMachine(testAgent());
    for (let run = 0; run < 3; run++) {
      const response = toolTurn([
        { name: 'echo', input: { a: run } },
        { name: 'echo', input: { a: run + 1 } },
      ]);
      const calls = response.content.filter((part): part is ToolUsePart => part.type === 'tool_use');
      const events: AgentEvent[] = [
        { type: 'model.responded', response },
        ...calls.map((call): AgentEvent => ({
          type: 'tool.returned',
          call,
          response: { output: run, isError: false },
        })),
        // A result for a call nobody awaits is no observation: the machine stays where it is.
        ...calls
          .slice(0, 1)
          .map((call): AgentEvent => ({ type: 'tool.returned', call, response: { output: 0, isError: false } })),
        { type: 'fork.overridden', system: `prompt ${run}` },
        { type: 'model.responded', response: finalTurn('{"ok":true}') },
      ];
      let ours = initialSnapshot(machine, start);
      let theirs = initialTransition(machine, start)[0];
      expect(seen(ours)).toEqual(seen(theirs));
      for (const event of events) {
        ours = nextSnapshot(machine, ours, event);
        [theirs] = transition(machine, theirs, event);
        expect(seen(ours)).toEqual(seen(theirs));
      }
      expect(ours.status).toBe('done');
    }
  });
});
