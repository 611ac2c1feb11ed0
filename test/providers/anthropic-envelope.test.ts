import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/conversation/index.js';
import { anthropicBodyOf } from '../../src/providers/anthropic/anthropic-request.js';
import { neutralResponseOf } from '../../src/providers/anthropic/anthropic-response.js';

const message = (more: Record<string, unknown>) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text: 'Ran it.' }],
  stop_reason: 'stop_sequence',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 3 },
  ...more,
});

describe("fromAnthropic: a Message's own fields beside its content", () => {
  it('keeps the stop sequence, the stop details and the container verbatim, as an envelope part after the content', () => {
    const container = { id: 'container_011', expires_at: '2026-12-01T20:00:00Z' };
    const response = neutralResponseOf(message({ stop_sequence: 'END', container }));
    expect(response.stopReason).toBe('stop_sequence');
    expect(response.content).toEqual([
      { type: 'text', text: 'Ran it.' },
      { type: 'provider', provider: 'anthropic', block: { type: 'message_envelope', stop_sequence: 'END', container } },
    ]);
    // A Message that sets none of them gets no envelope.
    expect(neutralResponseOf(message({})).content).toEqual([{ type: 'text', text: 'Ran it.' }]);
  });

  it('names the container the conversation last ran in on the next request, and never sends the envelope as a block', () => {
    const ran = neutralResponseOf(message({ container: { id: 'container_011', expires_at: 'x' } }));
    const request: ModelRequest = {
      model: 'claude-sonnet-4-5',
      system: '',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Run the numbers.' }] },
        { role: 'assistant', content: ran.content },
        { role: 'user', content: [{ type: 'text', text: 'Again.' }] },
      ],
      tools: [],
      params: { maxTokens: 64 },
    };
    const body = anthropicBodyOf(request, {});
    expect(body.container).toBe('container_011');
    expect(JSON.stringify(body.messages)).not.toContain('message_envelope');
    // A container the build names itself wins.
    const own = anthropicBodyOf(
      { ...request, params: { maxTokens: 64, provider: { anthropic: { container: 'mine' } } } },
      {},
    );
    expect(own.container).toBe('mine');
  });
});
