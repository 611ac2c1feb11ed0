import type { AgentBuild } from '../agent/index.js';
import { defineAgent } from '../agent/index.js';
import type { MessagePart, ModelResponse, StopReason } from '../conversation/index.js';
import type { JsonObject } from '../json/index.js';
import type { ModelProvider, World } from '../world/index.js';

/** The token counts every scripted response reports: the suite checks they come back through the wire unchanged. */
export const SCRIPTED_USAGE = { inputTokens: 11, outputTokens: 7 } as const;

/** The agent every case runs: one read-only tool, a JSON outcome. */
export function conformanceAgent(model: string, params: AgentBuild['params'] = { maxTokens: 512 }): AgentBuild {
  return defineAgent({
    name: 'provider-conformance',
    build: 'baseline',
    systemPrompt: 'You look keys up, then answer with JSON.',
    model,
    params,
    tools: [
      {
        name: 'lookup',
        description: 'Looks a key up.',
        inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
        readOnly: true,
      },
    ],
    stepCap: 20,
    renderInput: (input) => `Look up ${JSON.stringify(input.key ?? null)} and answer.`,
    parseOutcome: (text) => {
      try {
        const value: unknown = JSON.parse(text);
        return typeof value === 'object' && value !== null && !Array.isArray(value)
          ? { ok: true, outcome: value as JsonObject }
          : { ok: false, problem: 'not a JSON object' };
      } catch {
        return { ok: false, problem: `not JSON: ${text.slice(0, 40)}` };
      }
    },
  });
}

/** The world every case meets: the provider under test, and a lookup tool that answers at once. */
export function conformanceWorld(model: ModelProvider): World {
  const lookup = (input: JsonObject) => {
    const key = typeof input.key === 'string' ? input.key : JSON.stringify(input.key ?? null);
    return { key, value: `value of ${key}` };
  };
  return { model, tools: { lookup } };
}

let responses = 0;

function response(model: string, content: MessagePart[], stopReason: StopReason): ModelResponse {
  return { id: `msg_conformance_${responses++}`, model, content, stopReason, usage: SCRIPTED_USAGE };
}

/** A turn asking for `lookup` once per key, in order, with the given call ids. */
export function lookupTurn(model: string, calls: ReadonlyArray<{ id: string; key: string }>): ModelResponse {
  const uses: MessagePart[] = calls.map((call) => ({
    type: 'tool_use',
    id: call.id,
    name: 'lookup',
    input: { key: call.key },
  }));
  return response(model, [{ type: 'text', text: 'Looking it up.' }, ...uses], 'tool_use');
}

/** A final turn writing `text`. */
export function finalTurn(model: string, text: string, stopReason: StopReason = 'end_turn'): ModelResponse {
  return response(model, [{ type: 'text', text }], stopReason);
}

/** A turn that reasons (with a signature the provider wants back verbatim), then asks for one lookup. */
export function thinkingTurn(model: string, signature: string, callId: string): ModelResponse {
  return response(
    model,
    [
      { type: 'thinking', thinking: 'The key is probably in the archive.', signature },
      { type: 'tool_use', id: callId, name: 'lookup', input: { key: 'archive' } },
    ],
    'tool_use',
  );
}
