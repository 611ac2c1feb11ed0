import type Anthropic from '@anthropic-ai/sdk';
import type { JsonObject } from '../../../src/json/index.js';
import { CLAIM_SYSTEM, CLAIM_TOOL_DEFINITIONS, LOOP_MODEL } from './claim-world.js';

/** A tool as the loop calls it. */
export type LoopTool = (input: JsonObject) => Promise<unknown>;

/** How the loop runs: which system prompt, streamed or not, and what it saw of each stream. */
export interface LoopOptions {
  readonly system?: string;
  readonly stream?: boolean;
  /** Told every raw stream event the SDK parsed, in order. */
  readonly onEvent?: (event: unknown) => void;
}

/**
 * A hand-written agent loop over the Anthropic SDK, as a team writes one
 * without forkpoint: `while` the model asks for tools, run them (at once),
 * send the results back. forkpoint neither wrote nor drives it.
 */
export async function anthropicClaimLoop(
  client: Anthropic,
  tools: Readonly<Record<string, LoopTool>>,
  options: LoopOptions = {},
): Promise<string> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Triage claim CLM-91077.' }];
  const body = {
    model: LOOP_MODEL,
    max_tokens: 1024,
    system: options.system ?? CLAIM_SYSTEM,
    tools: CLAIM_TOOL_DEFINITIONS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
    })),
  };
  for (let turn = 0; turn < 10; turn++) {
    let message: Anthropic.Message;
    if (options.stream === true) {
      const stream = client.messages.stream({ ...body, messages });
      stream.on('streamEvent', (event) => options.onEvent?.(event));
      message = await stream.finalMessage();
    } else message = await client.messages.create({ ...body, messages });
    messages.push({ role: 'assistant', content: message.content });
    const uses = message.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    if (uses.length === 0) return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const results = await Promise.all(
      uses.map(async (use): Promise<Anthropic.ToolResultBlockParam> => {
        const tool = tools[use.name];
        if (tool === undefined)
          return { type: 'tool_result', tool_use_id: use.id, content: 'no such tool', is_error: true };
        return {
          type: 'tool_result',
          tool_use_id: use.id,
          content: JSON.stringify(await tool(use.input as JsonObject)),
        };
      }),
    );
    messages.push({ role: 'user', content: results });
  }
  throw new Error('the loop ran out of turns');
}
