import type OpenAI from 'openai';
import type { JsonObject } from '../../../src/json/index.js';
import type { LoopOptions, LoopTool } from './anthropic-claim-loop.js';
import { CLAIM_SYSTEM, CLAIM_TOOL_DEFINITIONS, LOOP_MODEL } from './claim-world.js';

interface AssembledCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * A hand-written Chat Completions loop over the OpenAI SDK: the assistant
 * message goes back with its tool calls, then one `tool` message per call.
 * Streamed, it assembles the deltas itself, as such loops do.
 */
export async function openAIClaimLoop(
  client: OpenAI,
  tools: Readonly<Record<string, LoopTool>>,
  options: LoopOptions = {},
): Promise<string> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'system', content: options.system ?? CLAIM_SYSTEM },
    { role: 'user', content: 'Triage claim CLM-91077.' },
  ];
  const body = {
    model: LOOP_MODEL,
    max_completion_tokens: 1024,
    tools: CLAIM_TOOL_DEFINITIONS.map((tool): OpenAI.ChatCompletionTool => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    })),
  };
  for (let turn = 0; turn < 10; turn++) {
    let content = '';
    let calls: AssembledCall[] = [];
    if (options.stream === true) {
      const stream = await client.chat.completions.create({
        ...body,
        messages,
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) {
        options.onEvent?.(chunk);
        const delta = chunk.choices[0]?.delta;
        content += delta?.content ?? '';
        for (const part of delta?.tool_calls ?? []) {
          const call = (calls[part.index] ??= { id: '', name: '', arguments: '' });
          call.id ||= part.id ?? '';
          call.name ||= part.function?.name ?? '';
          call.arguments += part.function?.arguments ?? '';
        }
      }
    } else {
      const completion = await client.chat.completions.create({ ...body, messages });
      const message = completion.choices[0]?.message;
      content = message?.content ?? '';
      calls = (message?.tool_calls ?? []).flatMap((call) =>
        call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
      );
    }
    if (calls.length === 0) return content;
    messages.push({
      role: 'assistant',
      content: content === '' ? null : content,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      })),
    });
    for (const call of calls) {
      const tool = tools[call.name];
      const output = tool === undefined ? 'no such tool' : await tool(JSON.parse(call.arguments) as JsonObject);
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(output) });
    }
  }
  throw new Error('the loop ran out of turns');
}
