// The synthetic agent of the bench: the equivalent of `testAgent` and `syntheticWorld` in
// test/support/test-agents.ts (test/ is not compiled), built with `defineAgent` from dist.
// The model calls `echo` once per turn; each result carries a payload of `resultBytes` characters.
import { defineAgent } from '../../dist/src/agent/index.js';

/** A run of `steps` steps makes this many tool calls: model/tool pairs, then the final model turn. */
export const toolCallsFor = (steps) => (steps - 1) / 2;

/** The bench's only input: the synthetic world ignores it. */
export const INPUT = { task: 'bench' };

function parseJsonOutcome(text) {
  try {
    const value = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { ok: true, outcome: value };
    return { ok: false, problem: 'not an object' };
  } catch {
    return { ok: false, problem: `not JSON: ${text}` };
  }
}

const definition = {
  name: 'bench-agent',
  build: 'baseline',
  systemPrompt: 'You echo things.',
  model: 'test-model',
  params: { maxTokens: 256 },
  tools: [{ name: 'echo', description: 'echoes its input', inputSchema: { type: 'object' }, readOnly: true }],
  stepCap: 256,
  renderInput: (input) => `Run task ${JSON.stringify(input)}`,
  parseOutcome: parseJsonOutcome,
};

/** A build like `testAgent`, with a step cap high enough for the longest run `npm run bench` measures. */
export const syntheticAgent = defineAgent(definition);

/** The same build with another step cap, for the long runs of `npm run bench:long`. */
export const syntheticAgentCapped = (stepCap) => defineAgent({ ...definition, stepCap });

let ids = 0;
const response = (content, stopReason) => ({
  id: `msg_${ids++}`,
  model: 'test-model',
  content,
  stopReason,
  usage: { inputTokens: 1, outputTokens: 1 },
});

/** A world that answers at once: `toolCalls` echo turns, then a JSON outcome. */
export function syntheticWorld({ toolCalls, resultBytes }) {
  const payload = 'x'.repeat(resultBytes);
  return {
    model: {
      async respond(request) {
        // The conversation is the task, then one assistant turn and one result turn per call: counting its
        // assistant turns by its length keeps the world O(1) per call, so that a long run's late steps do
        // not measure the world scanning the conversation (on a heap a recording has made larger).
        const done = (request.messages.length - 1) / 2;
        if (done >= toolCalls)
          return response([{ type: 'text', text: JSON.stringify({ ok: true, calls: done }) }], 'end_turn');
        return response(
          [
            { type: 'text', text: 'calling tools' },
            { type: 'tool_use', id: `toolu_${ids++}`, name: 'echo', input: { n: done } },
          ],
          'tool_use',
        );
      },
    },
    tools: { echo: (input) => ({ echoed: input, payload }) },
  };
}
