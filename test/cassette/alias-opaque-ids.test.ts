import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/conversation/index.js';
import { AliasTable, aliasOpaqueIds, registerOpaqueIds } from '../../src/cassette/index.js';

// A conversation holding every kind of opaque value a provider mints, twice each.
const conversation: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Go.' }] },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'a', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'red-1' },
      { type: 'provider', provider: 'openai', block: { type: 'reasoning', id: 'rs_1', encrypted_content: 'enc-1' } },
      { type: 'provider', provider: 'anthropic', block: { type: 'server_tool_use', id: 'srv_1' } },
      { type: 'provider', provider: 'anthropic', block: { type: 'web_search_tool_result', tool_use_id: 'srv_1' } },
      { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} },
      { type: 'provider', provider: 'anthropic', block: { type: 'message_envelope', container: { id: 'box_1' } } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_1', content: 'x', isError: false }] },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'b', signature: 'sig-2' },
      { type: 'provider', provider: 'openai', block: { type: 'reasoning', id: 'rs_2', encrypted_content: 'enc-2' } },
      { type: 'tool_use', id: 'toolu_2', name: 'lookup', input: {} },
      { type: 'provider', provider: 'anthropic', block: { type: 'message_envelope', container: { id: 'box_2' } } },
    ],
  },
];

describe('the aliases of opaque values', () => {
  it('are the same whether a table aliased the whole conversation or was restored from its first turns (a resume, a fork)', () => {
    const fresh = new AliasTable();
    const aliased = conversation.map((message) => aliasOpaqueIds(message, fresh));
    for (let restoredUpTo = 0; restoredUpTo < conversation.length; restoredUpTo++) {
      const restored = new AliasTable();
      for (const message of conversation.slice(0, restoredUpTo)) registerOpaqueIds(message, restored);
      const rest = conversation.slice(restoredUpTo).map((message) => aliasOpaqueIds(message, restored));
      expect(rest, `restored after ${restoredUpTo} messages`).toEqual(aliased.slice(restoredUpTo));
    }
    // Every opaque value was replaced.
    expect(JSON.stringify(aliased)).not.toMatch(/sig-|red-|enc-|rs_|srv_|toolu_|box_/);
  });
});
