/** The model the fixture's calls go to, as a middleware sees it. */
export const FIXTURE_MODEL = { provider: 'anthropic.messages', modelId: 'claude-like' };

/**
 * A call as `ai` hands it to a middleware at the third step of a tool loop,
 * with every kind of option set: a fresh copy each time, for a test to change.
 */
export function fixtureCall(): Record<string, unknown> {
  return {
    maxOutputTokens: 300,
    temperature: 0.2,
    topP: 0.9,
    topK: 40,
    stopSequences: ['END'],
    seed: 7,
    presencePenalty: 0.1,
    frequencyPenalty: 0.2,
    responseFormat: { type: 'json', schema: { type: 'object' } },
    tools: [
      {
        type: 'function',
        name: 'lookup',
        description: 'Looks a key up.',
        inputSchema: { type: 'object', properties: { key: { type: 'string' } } },
      },
    ],
    toolChoice: { type: 'required' },
    headers: { 'anthropic-beta': 'beta-1', 'user-agent': 'ai/6.0.326' },
    providerOptions: { anthropic: { sendReasoning: true } },
    prompt: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Look a up.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Look it up.', providerOptions: { anthropic: { signature: 'sig-1' } } },
          { type: 'text', text: 'Looking.' },
          { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'lookup', input: { key: 'a' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'toolu_1', toolName: 'lookup', output: { type: 'text', value: 'v-a' } },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
    ],
  };
}

/** `call` at `path` (keys and indexes), for a test to read or replace. */
export function at(call: Record<string, unknown>, path: readonly (string | number)[]): Record<string, unknown> {
  let node: unknown = call;
  for (const key of path) node = (node as Record<string | number, unknown>)[key];
  return node as Record<string, unknown>;
}
