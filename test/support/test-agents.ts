import type { AgentBuild } from '../../src/agent/index.js';
import type { JsonObject } from '../../src/json/index.js';
import type { MessagePart, ModelRequest, ModelResponse } from '../../src/conversation/index.js';
import type { World } from '../../src/world/index.js';
import { defineAgent } from '../../src/agent/index.js';
import { textOf } from '../../src/conversation/index.js';

/** Parses `{"ok": ...}`-style JSON outcomes out of the final text. */
export function parseJsonOutcome(text: string) {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { ok: true as const, outcome: value as JsonObject };
    return { ok: false as const, problem: 'not an object' };
  } catch {
    return { ok: false as const, problem: `not JSON: ${text}` };
  }
}

/** A small agent for engine tests: two tools, a JSON outcome that must not say `ok: false`. */
export function testAgent(overrides: Partial<Parameters<typeof defineAgent>[0]> = {}): AgentBuild {
  return defineAgent({
    name: 'test-agent',
    build: 'baseline',
    systemPrompt: 'You echo things.',
    model: 'test-model',
    params: { maxTokens: 256 },
    tools: [
      { name: 'echo', description: 'echoes its input', inputSchema: { type: 'object' }, readOnly: true },
      { name: 'write', description: 'writes a record', inputSchema: { type: 'object' }, readOnly: false },
    ],
    stepCap: 50,
    renderInput: (input) => `Run task ${JSON.stringify(input)}`,
    parseOutcome: parseJsonOutcome,
    validateOutcome: (outcome) => (outcome.ok === false ? ['the outcome says ok: false'] : []),
    ...overrides,
  });
}

let ids = 0;
/** A model turn asking for tools, with fresh opaque ids (as a provider mints them). */
export function toolTurn(calls: ReadonlyArray<{ name: string; input: JsonObject }>, idPrefix = 'toolu'): ModelResponse {
  const content: MessagePart[] = [{ type: 'text', text: 'calling tools' }];
  for (const call of calls)
    content.push({ type: 'tool_use', id: `${idPrefix}_${ids++}`, name: call.name, input: call.input });
  return {
    id: `msg_${ids++}`,
    model: 'test-model',
    content,
    stopReason: 'tool_use',
    usage: { inputTokens: 1, outputTokens: 1 },
  };
}

/** A final model turn writing `text`. */
export function finalTurn(text: string): ModelResponse {
  return {
    id: `msg_${ids++}`,
    model: 'test-model',
    content: [{ type: 'text', text }],
    stopReason: 'end_turn',
    usage: { inputTokens: 1, outputTokens: 1 },
  };
}

/** Options of {@link syntheticWorld}. */
export interface SyntheticWorldOptions {
  /** How many tool calls the model makes, one per turn, before deciding. */
  readonly toolCalls: number;
  /** The size of each tool result's payload. */
  readonly resultBytes?: number;
  /** Prefix of the opaque ids the model mints (vary it to simulate another provider call). */
  readonly idPrefix?: string;
  /** The final outcome. */
  readonly outcome?: JsonObject;
  /** How many tool calls the model asks for in one turn (default 1). */
  readonly batch?: number;
  /** Called for every model request (to count or inspect calls). */
  readonly onModelRequest?: (request: ModelRequest) => void;
}

/**
 * A world whose model calls `echo` once per turn until it has made
 * `toolCalls` calls, then writes the outcome; `echo` returns its input with a
 * payload of `resultBytes` characters.
 */
export function syntheticWorld(options: SyntheticWorldOptions): World {
  const payload = 'x'.repeat(options.resultBytes ?? 64);
  return {
    model: {
      // The executor's throw (onModelRequest's) rejects the promise, as a provider's failed call does.
      respond: (request) =>
        new Promise((resolve) => {
          options.onModelRequest?.(request);
          const turns = request.messages.filter((message) => message.role === 'assistant').length;
          const batch = options.batch ?? 1;
          const done = turns * batch;
          if (done >= options.toolCalls) {
            resolve(finalTurn(JSON.stringify(options.outcome ?? { ok: true, calls: done })));
            return;
          }
          const calls = Array.from({ length: Math.min(batch, options.toolCalls - done) }, (_, i) => ({
            name: 'echo',
            input: { n: done + i },
          }));
          resolve(toolTurn(calls, options.idPrefix));
        }),
    },
    tools: {
      echo: (input) => ({ echoed: input, payload }),
      write: () => ({ written: true }),
    },
  };
}

/** The text of the first user message of a request. */
export const firstText = (request: ModelRequest): string => textOf(request.messages[0]?.content ?? []);
