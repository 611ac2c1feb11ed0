import type { JsonObject, JsonValue, Message, ToolDefinition } from '../../../src/index.js';
import { isJsonObject, textOf } from '../../../src/index.js';

/** One tool call the conversation holds, with its result once it has one. */
export interface ToolExchange {
  readonly name: string;
  readonly input: JsonObject;
  readonly output: JsonValue | undefined;
  readonly isError: boolean;
}

/** What the simulated model reads out of a conversation. */
export interface ConversationFacts {
  /** The claim id the user asked about, if the first message names one. */
  readonly claimId: string | undefined;
  readonly exchanges: readonly ToolExchange[];
  /** The names of the tools the request offers: the model calls no other. */
  readonly offered: ReadonlySet<string>;
}

/** Reads the claim id and every tool call with its result out of the messages, and the tools on offer. */
export function readConversation(
  messages: readonly Message[],
  tools: readonly Pick<ToolDefinition, 'name'>[],
): ConversationFacts {
  const first = messages[0];
  const claimId = first === undefined ? undefined : /CLM-\d+/.exec(textOf(first.content))?.[0];
  const calls = new Map<string, { name: string; input: JsonObject }>();
  const exchanges: ToolExchange[] = [];
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === 'tool_use') calls.set(part.id, { name: part.name, input: part.input });
      if (part.type === 'tool_result') {
        const call = calls.get(part.toolUseId);
        if (call !== undefined) exchanges.push({ ...call, output: part.content, isError: part.isError });
      }
    }
  }
  return { claimId, exchanges, offered: new Set(tools.map((tool) => tool.name)) };
}

/** The outputs of every successful call to `tool`, oldest first. */
export function outputsOf(facts: ConversationFacts, tool: string): JsonObject[] {
  return facts.exchanges
    .filter((exchange) => exchange.name === tool && !exchange.isError && isJsonObject(exchange.output))
    .map((exchange) => exchange.output as JsonObject);
}
