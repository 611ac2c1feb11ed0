import { describe, expect, it } from 'vitest';
import { RequestHasher } from '../../../src/cassette/index.js';
import { ForkpointError } from '../../../src/errors/index.js';
import type { JsonObject, JsonPatchOperation, JsonValue } from '../../../src/json/index.js';
import { applyJsonPatch, isJsonObject } from '../../../src/json/index.js';
import { CHAT_FIELDS_SET_ASIDE, chatCanonicalOf } from '../../../src/providers/openai/chat-canonical.js';

// A user's loop's second call, as the SDK sends it: the response message pushed back as it came.
const base = (): JsonObject => ({
  model: 'gpt-5.4-mini',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Look up T-1.' },
    {
      role: 'assistant',
      content: null,
      refusal: null,
      annotations: [],
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look_up', arguments: '{"ticket":"T-1"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '{"status":"open"}' },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'look_up', description: 'Looks a ticket up.', parameters: { type: 'object', properties: {} } },
    },
  ],
  max_completion_tokens: 256,
  temperature: 0.2,
});

const hashOf = (body: JsonObject): string =>
  new RequestHasher().hashModelRequest(chatCanonicalOf(body).request).requestHash;

// An edit of a body, as JSON Patch operations: `set` a field (added or replaced), `swap` a list's item, `drop`, `push`.
type Edit = readonly JsonPatchOperation[];
const set = (path: string, value: JsonValue): Edit => [{ op: 'add', path, value }];
const swap = (path: string, value: JsonValue): Edit => [{ op: 'replace', path, value }];
const drop = (path: string): Edit => [{ op: 'remove', path }];
const push = (path: string, value: JsonValue): Edit => [{ op: 'add', path: `${path}/-`, value }];

const MODEL_AFFECTING: readonly [string, Edit][] = [
  ['model', set('/model', 'gpt-5.4')],
  ['the system prompt', set('/messages/0/content', 'Be very brief.')],
  ['the system role', set('/messages/0/role', 'developer')],
  ['a user text', set('/messages/1/content', 'Look up T-2.')],
  [
    'a user text in two parts',
    set('/messages/1/content', [
      { type: 'text', text: 'Look up ' },
      { type: 'text', text: 'T-1.' },
    ]),
  ],
  [
    'an image beside the text',
    set('/messages/1/content', [
      { type: 'text', text: 'Look up T-1.' },
      { type: 'image_url', image_url: { url: 'https://x/1.png' } },
    ]),
  ],
  ['a user name', set('/messages/1/name', 'ana')],
  ["a tool call's arguments", set('/messages/2/tool_calls/0/function/arguments', '{"ticket":"T-2"}')],
  [
    "a tool call's arguments spelt with spaces",
    set('/messages/2/tool_calls/0/function/arguments', '{"ticket": "T-1"}'),
  ],
  ["a tool call's name", set('/messages/2/tool_calls/0/function/name', 'close')],
  ['an assistant refusal', set('/messages/2/refusal', 'I will not.')],
  ['an assistant text', set('/messages/2/content', 'Looking.')],
  ['a tool result', set('/messages/3/content', '{"status":"closed"}')],
  ['a tool result as a string that spells JSON of a string', set('/messages/3/content', '"open"')],
  ['a tool result in parts', set('/messages/3/content', [{ type: 'text', text: '{"status":"open"}' }])],
  ['a message more', push('/messages', { role: 'user', content: 'And T-2?' })],
  ['a developer message later', push('/messages', { role: 'developer', content: 'Answer in French.' })],
  [
    "a tool's schema",
    set('/tools/0/function/parameters', { type: 'object', properties: { ticket: { type: 'string' } } }),
  ],
  ["a tool's description", set('/tools/0/function/description', 'Finds a ticket.')],
  ["a tool's description left out", drop('/tools/0/function/description')],
  ['a tool made strict', set('/tools/0/function/strict', true)],
  ['a custom tool more', push('/tools', { type: 'custom', custom: { name: 'grep' } })],
  ['no tools', drop('/tools')],
  ['max_completion_tokens', set('/max_completion_tokens', 512)],
  ['max_completion_tokens left out', drop('/max_completion_tokens')],
  ['max_tokens (legacy) given instead', [...drop('/max_completion_tokens'), ...set('/max_tokens', 256)]],
  ['temperature', set('/temperature', 0.3)],
  ['top_p', set('/top_p', 0.9)],
  ['stop', set('/stop', ['END'])],
  ['tool_choice', set('/tool_choice', 'required')],
  ['parallel_tool_calls', set('/parallel_tool_calls', false)],
  ['seed', set('/seed', 7)],
  ['n', set('/n', 2)],
  ['reasoning_effort', set('/reasoning_effort', 'high')],
  ['response_format', set('/response_format', { type: 'json_object' })],
  ['logprobs', set('/logprobs', true)],
  ['a field the API adds later', set('/verbosity_v2', 'low')],
];

const edited = (edit: Edit): JsonObject => {
  const body = applyJsonPatch(base(), edit);
  if (!isJsonObject(body)) throw new Error('an edit made the body something else');
  return body;
};

describe('chatCanonicalOf: what changes the answer changes the hash', () => {
  it.each(MODEL_AFFECTING)('%s', (_name, edit) => {
    expect(hashOf(edited(edit))).not.toBe(hashOf(base()));
  });

  it('gives every one of those edits a hash of its own', () => {
    const hashes = MODEL_AFFECTING.map(([, edit]) => hashOf(edited(edit)));
    expect(new Set([...hashes, hashOf(base())]).size).toBe(MODEL_AFFECTING.length + 1);
  });
});

describe('chatCanonicalOf: what never changes the answer', () => {
  const aside: JsonObject = {
    stream: true,
    stream_options: { include_usage: true },
    metadata: { trace: 'abc' },
    store: true,
    user: 'user-42',
    safety_identifier: 'hash-42',
    prompt_cache_key: 'tickets',
    prompt_cache_retention: '24h',
  };

  it('sets the named fields aside, verbatim, out of the hash', () => {
    const result = chatCanonicalOf({ ...base(), ...aside });
    expect(Object.keys(aside).sort()).toEqual([...CHAT_FIELDS_SET_ASIDE].sort());
    expect(result.setAside).toEqual(aside);
    expect(result.streamed).toBe(true);
    expect(hashOf({ ...base(), ...aside })).toBe(hashOf(base()));
  });

  it('reads null as the API does, as not given, a string stop as a list of one, a string as one text part', () => {
    const spelt = edited([
      ...set('/top_p', null),
      ...set('/stop', 'END'),
      ...set('/messages/1/content', [{ type: 'text', text: 'Look up T-1.' }]),
      ...set('/messages/2/audio', null),
    ]);
    expect(hashOf(spelt)).toBe(hashOf({ ...base(), stop: ['END'] }));
  });
});

const refusal = (body: JsonObject): ForkpointError => {
  try {
    chatCanonicalOf(body);
  } catch (error) {
    if (error instanceof ForkpointError) return error;
    throw error;
  }
  throw new Error('the body was mapped');
};

const UNMAPPABLE: readonly [string, Edit][] = [
  ['model', set('/model', 5)],
  ['messages', set('/messages', 'hi')],
  ['messages[1]', swap('/messages/1', 'hi')],
  ['messages[1].role', set('/messages/1/role', 'robot')],
  ['messages[1].content', drop('/messages/1/content')],
  ['messages[1].content[0].type', set('/messages/1/content', [{ type: 'video', url: 'x' }])],
  ['messages[1].content[0]', set('/messages/1/content', [7])],
  ['messages[2].content[0].type', set('/messages/2/content', [{ type: 'image_url', image_url: { url: 'x' } }])],
  ['messages[2].tool_calls', set('/messages/2/tool_calls', { id: 'call_1' })],
  ['messages[2].tool_calls[0]', set('/messages/2/tool_calls', ['call_1'])],
  ['messages[3].tool_call_id', set('/messages/3/tool_call_id', 1)],
  ['tools', set('/tools', { look_up: {} })],
  ['tools[0].type', set('/tools/0/type', 'web_search')],
  ['tools[0].function', set('/tools/0/function', { description: 'no name' })],
  ['tools[0].function.parameters', set('/tools/0/function/parameters', 'object')],
  ['max_completion_tokens', set('/max_completion_tokens', 2.5)],
  ['temperature', set('/temperature', 'hot')],
  ['top_p', set('/top_p', [1])],
  ['stop', set('/stop', [1, 2])],
  ['stream', set('/stream', 'yes')],
];

describe('chatCanonicalOf: what it cannot map', () => {
  it.each(UNMAPPABLE)('refuses %s with PROVIDER_UNMAPPED, naming it', (field, edit) => {
    const error = refusal(edited(edit));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details.field).toBe(field);
    expect(error.message).toContain(`request's ${field} cannot be mapped`);
    expect(error.message).toContain('send it in the form the Chat Completions API documents');
  });

  it('refuses a body that is not plain JSON, saying where', () => {
    const error = refusal({ ...base(), temperature: Number.NaN });
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details.field).toBe('body');
    expect(error.message).toContain('$.temperature');
  });
});
