import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '../../src/conversation/index.js';
import { RequestHasher, digestArray } from '../../src/cassette/index.js';
import { canonicalJson } from '../../src/json/index.js';
import { sha256Hex } from '../../src/json/index.js';

const system = 'Triage claims.';
const tools = [{ name: 'fetch_claim', description: 'd', inputSchema: { type: 'object' } }];
const params = { maxTokens: 100 };

function conversation(ids: { tool: string; signature: string }, area = 205): Message[] {
  return [
    { role: 'user', content: [{ type: 'text', text: 'Triage claim CLM-91077.' }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'read the form', signature: ids.signature },
        { type: 'tool_use', id: ids.tool, name: 'ocr_document', input: { document_id: 'DOC-1' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', toolUseId: ids.tool, content: { value: area }, isError: false }] },
  ];
}

const request = (messages: Message[], overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'claude-opus-5',
  system,
  tools,
  params,
  messages,
  ...overrides,
});

describe('RequestHasher', () => {
  it('hashes the canonical form: the request with each message as its digest', () => {
    const hasher = new RequestHasher();
    const messages = conversation({ tool: 'toolu_A', signature: 'sig_A' });
    const hashed = hasher.hashModelRequest(request(messages));
    const expected = canonicalJson({
      messages: digestArray(hashed.messageDigests),
      model: 'claude-opus-5',
      params,
      system,
      tools,
    });
    expect(hashed.canonical).toBe(expected);
    expect(hashed.requestHash).toBe(sha256Hex(expected, 16));
    expect(hashed.messageDigests).toHaveLength(3);
    expect(hashed.requestHash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('hashes a growing conversation as it would hash each request from scratch, and a request over part of it too', () => {
    const hasher = new RequestHasher();
    const messages = conversation({ tool: 'toolu_A', signature: 'sig_A' });
    const fromScratch = (digests: readonly string[]) =>
      canonicalJson({ messages: [...digests], model: 'claude-opus-5', params, system, tools });
    const hashes: string[] = [];
    for (let length = 0; length <= messages.length; length++) {
      const hashed = hasher.hashModelRequest(request(messages.slice(0, length)));
      expect(hashed.canonical).toBe(fromScratch(digestArray(hashed.messageDigests)));
      expect(hashed.requestHash).toBe(sha256Hex(fromScratch(digestArray(hashed.messageDigests)), 16));
      hashes.push(hashed.requestHash);
    }
    expect(new Set(hashes).size).toBe(messages.length + 1);
    // Behind the conversation it has seen, the hasher takes the slower path to the same answer.
    const partial = hasher.hashModelRequest(request(messages.slice(0, 1)));
    expect(partial.requestHash).toBe(hashes[1]);
    expect(partial.canonical).toBe(fromScratch(digestArray(partial.messageDigests)));
  });

  it('gives the same hash to two runs whose provider minted different ids and signatures', () => {
    const a = new RequestHasher().hashModelRequest(request(conversation({ tool: 'toolu_A', signature: 'sig_A' })));
    const b = new RequestHasher().hashModelRequest(request(conversation({ tool: 'toolu_B', signature: 'sig_B' })));
    expect(a.requestHash).toBe(b.requestHash);
  });

  it("aliases redacted reasoning and a provider block's own ids by the same positional rule", () => {
    const withOpaque = (data: string, serverId: string): Message[] => [
      { role: 'user', content: [{ type: 'text', text: 'Find the policy.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'redacted_thinking', data },
          {
            type: 'provider',
            provider: 'anthropic',
            block: { type: 'server_tool_use', id: serverId, name: 'web_search' },
          },
          {
            type: 'provider',
            provider: 'anthropic',
            block: { type: 'web_search_tool_result', tool_use_id: serverId, content: [] },
          },
        ],
      },
    ];
    const hashOf = (messages: Message[]) => new RequestHasher().hashModelRequest(request(messages)).requestHash;
    expect(hashOf(withOpaque('EuYBCkQ', 'srvtoolu_A'))).toBe(hashOf(withOpaque('Zm9vYmFy', 'srvtoolu_B')));
    // An OpenAI reasoning item: its id and its encrypted reasoning are new on every call.
    const reasoning = (id: string, sealed: string): Message[] => [
      { role: 'user', content: [{ type: 'text', text: 'Think.' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'provider',
            provider: 'openai',
            block: { type: 'reasoning', id, encrypted_content: sealed, summary: [] },
          },
        ],
      },
    ];
    expect(hashOf(reasoning('rs_1', 'gAAAA1'))).toBe(hashOf(reasoning('rs_2', 'gAAAA2')));
    // Anthropic's envelope of a turn that ran code: its container is minted per conversation.
    const ranIn = (id: string): Message[] => [
      { role: 'user', content: [{ type: 'text', text: 'Run it.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Ran it.' },
          { type: 'provider', provider: 'anthropic', block: { type: 'message_envelope', container: { id } } },
        ],
      },
    ];
    expect(hashOf(ranIn('container_A'))).toBe(hashOf(ranIn('container_B')));
    // What the block holds is not opaque: a different search result is a different request.
    const other = withOpaque('EuYBCkQ', 'srvtoolu_A');
    const changed: Message[] = [
      other[0]!,
      {
        role: 'assistant',
        content: [
          ...other[1]!.content.slice(0, 2),
          {
            type: 'provider',
            provider: 'anthropic',
            block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_A', content: [{ url: 'x' }] },
          },
        ],
      },
    ];
    expect(hashOf(changed)).not.toBe(hashOf(other));
  });

  it('changes the hash when content, system prompt, model or params change', () => {
    const base = new RequestHasher().hashModelRequest(request(conversation({ tool: 't', signature: 's' }))).requestHash;
    const variants = [
      request(conversation({ tool: 't', signature: 's' }, 2050)),
      request(conversation({ tool: 't', signature: 's' }), { system: `${system} Now: 10:00` }),
      request(conversation({ tool: 't', signature: 's' }), { model: 'claude-sonnet-5' }),
      request(conversation({ tool: 't', signature: 's' }), { params: { maxTokens: 100, temperature: 0 } }),
      request(conversation({ tool: 't', signature: 's' }), { params: { maxTokens: 100, stopSequences: ['END'] } }),
      request(conversation({ tool: 't', signature: 's' }), {
        params: { maxTokens: 100, thinking: { budgetTokens: 2048 } },
      }),
      request(conversation({ tool: 't', signature: 's' }), {
        params: { maxTokens: 100, provider: { anthropic: { tool_choice: { type: 'any' } } } },
      }),
    ];
    for (const variant of variants) expect(new RequestHasher().hashModelRequest(variant).requestHash).not.toBe(base);
  });

  it('digests each message once and rejects a rewritten conversation', () => {
    const hasher = new RequestHasher();
    const messages = conversation({ tool: 't', signature: 's' });
    const first = hasher.hashModelRequest(request(messages.slice(0, 2)));
    const second = hasher.hashModelRequest(request(messages));
    expect(digestArray(second.messageDigests).slice(0, 2)).toEqual(digestArray(first.messageDigests));
    const rewritten = [
      messages[0]!,
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'other' }] },
    ];
    expect(() => hasher.hashModelRequest(request(rewritten))).toThrow(/append-only/);
  });

  it('still rejects a rewritten conversation at the ends it compares: the last message, the first, a rebuilt copy', () => {
    const messages = conversation({ tool: 't', signature: 's' });
    const seen = () => {
      const hasher = new RequestHasher();
      hasher.hashModelRequest(request(messages));
      return hasher;
    };
    const other: Message = { role: 'assistant', content: [{ type: 'text', text: 'other' }] };
    const next: Message = { role: 'assistant', content: [{ type: 'text', text: 'next' }] };
    // The last message it has seen, replaced, then the conversation grown on top of it.
    expect(() => seen().hashModelRequest(request([messages[0]!, messages[1]!, other, next]))).toThrow(
      /rewritten at message 2; a run's messages are append-only/,
    );
    // A shorter request whose last message is not the one it has seen there.
    expect(() => seen().hashModelRequest(request([messages[0]!, other]))).toThrow(/rewritten at message 1/);
    // The opening turn rewritten.
    expect(() => seen().hashModelRequest(request([other, messages[1]!, messages[2]!, next]))).toThrow(
      /rewritten at message 0/,
    );
    // A conversation rebuilt from copies (decoded, cloned): equal, but not the messages it has seen.
    expect(() => seen().hashModelRequest(request([...structuredClone(messages), next]))).toThrow(
      /rewritten at message 0/,
    );
    // The same messages in a new array, grown: what the machine sends every step.
    expect(seen().hashModelRequest(request([...messages, next])).messageDigests.length).toBe(4);
  });

  it('reads a bounded number of earlier messages per request, however long the conversation', () => {
    const hasher = new RequestHasher();
    const messages: Message[] = [];
    const reads: number[] = [];
    for (let i = 0; i < 400; i++) {
      messages.push({ role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text: `turn ${i}` }] });
      let read = 0;
      // Counts reads of messages the hasher had seen before this request.
      const known = i;
      const watched = new Proxy([...messages], {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key) && Number(key) < known) read++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      hasher.hashModelRequest(request(watched));
      reads.push(read);
    }
    expect(Math.max(...reads)).toBeLessThanOrEqual(2);
  });

  it('shares one digest list between the requests of a run instead of copying it per request', () => {
    const hasher = new RequestHasher();
    const messages = conversation({ tool: 't', signature: 's' });
    const first = hasher.hashModelRequest(request(messages.slice(0, 1)));
    const third = hasher.hashModelRequest(request(messages));
    expect(first.messageDigests.list).toBe(third.messageDigests.list);
    expect([first.messageDigests.length, third.messageDigests.length]).toEqual([1, 3]);
    // The prefix an earlier request saw is unchanged by what was appended since.
    expect(digestArray(first.messageDigests)).toEqual(digestArray(third.messageDigests).slice(0, 1));
    expect(hasher.messageDigests(messages)).toEqual(digestArray(third.messageDigests));
  });

  it('digests a message the same from the canonical texts a caller already has as from scratch', () => {
    const messages = conversation({ tool: 'toolu_1', signature: 'sig-1' });
    const output = (messages[2]!.content[0] as { content: object }).content;
    const seen: object[] = [];
    const known = (container: object) => {
      seen.push(container);
      return container === output ? canonicalJson(output as never) : undefined;
    };
    const withTexts = new RequestHasher();
    withTexts.lastDigest(messages.slice(0, 2));
    expect(withTexts.lastDigest(messages, known)).toBe(new RequestHasher().lastDigest(messages));
    expect(seen).toContain(output);
    // A wrong text is used as given: the caller vouches for what it hands over.
    const lying = new RequestHasher();
    lying.lastDigest(messages.slice(0, 2));
    expect(lying.lastDigest(messages, (container) => (container === output ? '{"value":2050}' : undefined))).not.toBe(
      new RequestHasher().lastDigest(messages),
    );
  });

  it('continues identically after adopting stored digests (a restored run)', () => {
    const messages = conversation({ tool: 'toolu_A', signature: 'sig_A' });
    const fresh = new RequestHasher();
    const reference = fresh.hashModelRequest(request(messages));
    const restored = new RequestHasher();
    const copy = structuredClone(messages);
    restored.adopt(copy, digestArray(reference.messageDigests));
    const next: Message = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_Z', name: 'estimate_repair', input: { area: 2050 } }],
    };
    const continuedFresh = fresh.hashModelRequest(request([...messages, next]));
    const continuedRestored = restored.hashModelRequest(request([...copy, structuredClone(next)]));
    expect(continuedRestored.requestHash).toBe(continuedFresh.requestHash);
  });

  it('hashes a tool request by tool and input, never by call id', () => {
    const hasher = new RequestHasher();
    const hashed = hasher.hashToolRequest({ tool: 'ocr_document', input: { document_id: 'DOC-1' } });
    expect(hashed.canonical).toBe('{"input":{"document_id":"DOC-1"},"tool":"ocr_document"}');
    expect(hasher.hashToolRequest({ tool: 'ocr_document', input: { document_id: 'DOC-2' } }).requestHash).not.toBe(
      hashed.requestHash,
    );
  });
});
