import { describe, expect, it } from 'vitest';
import type { MessagePart, ModelRequest } from '../../src/conversation/index.js';
import { fromOpenAIChat, fromOpenAIResponses, routeModels } from '../../src/providers/index.js';
import type { ModelProvider } from '../../src/world/index.js';
import { finalTurn } from '../support/test-agents.js';

const request = (model: string): ModelRequest => ({
  model,
  system: '',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  params: { maxTokens: 16 },
});

/** A provider that answers with its own name, and counts what it was asked. */
function named(name: string): ModelProvider & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    respond: (req) => {
      asked.push(req.model);
      return Promise.resolve(finalTurn(name));
    },
  };
}

describe('routeModels', () => {
  it('sends each request to the provider of the longest prefix its model id starts with', async () => {
    const anthropic = named('anthropic');
    const openai = named('openai');
    const mini = named('mini');
    const routed = routeModels({ 'claude-': anthropic, 'gpt-': openai, 'gpt-4o-mini': mini });
    const said = async (model: string) => (await routed.respond(request(model))).content;
    expect(await said('claude-opus-5')).toEqual([{ type: 'text', text: 'anthropic' }]);
    expect(await said('gpt-5')).toEqual([{ type: 'text', text: 'openai' }]);
    expect(await said('gpt-4o-mini-2024')).toEqual([{ type: 'text', text: 'mini' }]);
    expect([anthropic.asked, openai.asked, mini.asked]).toEqual([['claude-opus-5'], ['gpt-5'], ['gpt-4o-mini-2024']]);
  });

  it("asks the provider of the request's model which parts it leaves out: OpenAI's Chat Completions, reasoning", () => {
    const unused = () => Promise.reject(new Error('not called'));
    const chat = fromOpenAIChat({ chat: { completions: { create: unused } } });
    const responses = fromOpenAIResponses({ responses: { create: unused } });
    const routed = routeModels({ 'claude-': named('anthropic'), 'gpt-': chat, 'o4-': responses });
    const thinking: MessagePart = { type: 'thinking', thinking: 'hm', signature: 'sig' };
    const reasoningItem: MessagePart = {
      type: 'provider',
      provider: 'openai',
      block: { type: 'reasoning', id: 'rs_1' },
    };
    const conversation = (model: string): ModelRequest => ({
      ...request(model),
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [thinking, reasoningItem, { type: 'text', text: 'ok' }] },
      ],
    });
    expect(routed.leavesOut?.(conversation('gpt-5-mini'))).toEqual([thinking, reasoningItem]);
    // The Responses API takes its own reasoning items back, not another provider's reasoning.
    expect(routed.leavesOut?.(conversation('o4-mini'))).toEqual([thinking]);
    // A provider that does not say leaves nothing out, as far as anyone can tell.
    expect(routed.leavesOut?.(conversation('claude-opus-5'))).toEqual([]);
  });

  it('refuses a model no route serves with PROVIDER_REJECTED, naming the routes, and an empty table with USAGE', async () => {
    const routed = routeModels({ 'claude-': named('anthropic') });
    await expect(routed.respond(request('gemini-3'))).rejects.toMatchObject({
      code: 'PROVIDER_REJECTED',
      message: expect.stringMatching(/no provider serves model gemini-3: the routes are claude-\*/),
    });
    expect(() => routeModels({})).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});
