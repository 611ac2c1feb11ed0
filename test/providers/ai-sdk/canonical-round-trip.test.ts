import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  Message,
  MessagePart,
  ModelParams,
  ModelRequest,
  ToolDefinition,
} from '../../../src/conversation/index.js';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import type { AiSdkLanguageModel } from '../../../src/providers/ai-sdk/ai-sdk-model.js';
import { canonicalOfAiSdkCall } from '../../../src/providers/ai-sdk/ai-sdk-canonical.js';
import { callOptionsOf } from '../../../src/providers/ai-sdk/ai-sdk-prompt.js';
import { hashOf } from './canonical-support.js';

// Canonical requests the forward mapping expresses one way only: conversations that alternate user and assistant
// turns (as every driven run's do; two user messages in a row and one user message of tool results then text are
// the same prompt), non-empty user messages, provider parts of the model's own provider, and provider options
// that do not already hold what the forward mapping writes there itself (a thinking budget). For each, the
// inverse gives back the very request, so its hash too.

const anthropicModel = { provider: 'anthropic.messages', modelId: 'claude-like' };
const otherModel = { provider: 'acme.chat', modelId: 'acme-1' };
const languageModel = (identity: { provider: string; modelId: string }): AiSdkLanguageModel => ({
  specificationVersion: 'v3',
  ...identity,
  doGenerate: () => Promise.reject(new Error('the round trip never calls the model')),
});

// As the wire carries JSON: fast-check's JSON values include -0, which JSON text writes as 0.
// A finite number other than -0 (-0 + 0 is 0): a JSON round trip anywhere on the path would write -0 as 0.
const finiteNumber = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => n + 0);
const json = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.parse(JSON.stringify(value)) as JsonValue);
const jsonObject = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3 }) as fc.Arbitrary<JsonObject>;
const text = fc.string({ maxLength: 12 });
const id = fc.stringMatching(/^[a-z0-9_]{1,10}$/);

/** One assistant part, a tool use named from the tools, or a provider part of `provider`'s. */
const assistantPart = (provider: string, toolNames: readonly string[]): fc.Arbitrary<MessagePart> =>
  fc.oneof(
    text.map((t): MessagePart => ({ type: 'text', text: t })),
    fc
      .record({ t: text, citations: fc.array(jsonObject, { maxLength: 2 }) })
      .map(({ t, citations }): MessagePart => ({ type: 'text', text: t, citations })),
    fc
      .record({ t: text, signature: id })
      .map(({ t, signature }): MessagePart => ({ type: 'thinking', thinking: t, signature })),
    id.map((data): MessagePart => ({ type: 'redacted_thinking', data })),
    fc
      .record({ callId: id, name: fc.constantFrom(...toolNames, 'unlisted_tool'), input: jsonObject })
      .map(({ callId, name, input }): MessagePart => ({ type: 'tool_use', id: `call_${callId}`, name, input })),
    fc.record({ t: text, itemId: id }).map(({ t, itemId }): MessagePart => ({
      type: 'provider',
      provider,
      block: { type: 'reasoning', text: t, providerMetadata: { openai: { itemId } } },
    })),
    fc.constant<MessagePart>({
      type: 'provider',
      provider,
      block: { type: 'file', mediaType: 'image/png', data: 'aGVsbG8=' },
    }),
  );

const toolResultContent = fc.oneof(
  text,
  json.filter((value) => typeof value !== 'string'),
);

/** A conversation of alternating turns, each tool result answering a call made before it. */
const conversation = (provider: string, toolNames: readonly string[]): fc.Arbitrary<Message[]> =>
  fc
    .array(
      fc.record({
        assistant: fc.array(assistantPart(provider, toolNames), { maxLength: 4 }),
        userText: fc.array(text, { maxLength: 2 }),
        answers: fc.array(fc.record({ pick: fc.nat(), content: toolResultContent, isError: fc.boolean() }), {
          maxLength: 3,
        }),
        first: fc.boolean(),
      }),
      { minLength: 1, maxLength: 4 },
    )
    .chain((turns) => text.map((opening) => ({ turns, opening })))
    .map(({ turns, opening }) => {
      const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: opening }] }];
      const calls: string[] = [];
      const seen = new Set<string>();
      for (const turn of turns) {
        // Tool-use ids are unique in a run; a repeated one is left out here rather than renamed.
        const assistant = turn.assistant.filter((part) => part.type !== 'tool_use' || !seen.has(part.id));
        for (const part of assistant) {
          if (part.type !== 'tool_use') continue;
          seen.add(part.id);
          calls.push(part.id);
        }
        messages.push({ role: 'assistant', content: assistant });
        const results: MessagePart[] =
          calls.length === 0
            ? []
            : turn.answers.map((answer) => ({
                type: 'tool_result',
                toolUseId: calls[answer.pick % calls.length] ?? '',
                content: answer.content,
                isError: answer.isError,
              }));
        const texts = turn.userText.map((t): MessagePart => ({ type: 'text', text: t }));
        const user = turn.first ? [...results, ...texts] : [...texts, ...results];
        if (user.length > 0) messages.push({ role: 'user', content: user });
        else break;
      }
      return messages;
    });

const tools: fc.Arbitrary<ToolDefinition[]> = fc.uniqueArray(
  fc.record({ name: id, description: text, inputSchema: jsonObject }),
  { selector: (tool) => tool.name, maxLength: 3 },
);

const ownOptions: fc.Arbitrary<JsonObject> = fc.record(
  {
    seed: fc.integer(),
    presencePenalty: finiteNumber,
    toolChoice: fc.oneof(
      fc.constant({ type: 'required' }),
      fc.constant({ type: 'none' }),
      id.map((toolName) => ({ type: 'tool', toolName })),
    ),
    providerOptions: fc.oneof(
      fc.record({ acme: jsonObject }),
      fc.boolean().map((sendReasoning) => ({ anthropic: { sendReasoning } })),
    ),
    headers: text.map((beta) => ({ 'anthropic-beta': beta })),
  },
  { requiredKeys: [] },
);

const params = (thinkable: boolean): fc.Arbitrary<ModelParams> =>
  fc
    .record(
      {
        maxTokens: fc.integer({ min: 1, max: 100_000 }),
        temperature: finiteNumber,
        topP: finiteNumber,
        topK: fc.integer({ min: 1, max: 500 }),
        stopSequences: fc.array(text, { maxLength: 2 }),
        budget: thinkable ? fc.integer({ min: 1, max: 4096 }) : fc.constant(undefined),
        own: ownOptions,
      },
      { requiredKeys: ['maxTokens', 'own'] },
    )
    .map(({ budget, own, maxTokens, ...rest }): ModelParams => ({
      ...rest,
      // The forward mapping sends `maxTokens - budget` as `maxOutputTokens`, which `ai` wants 1 or more.
      maxTokens: budget === undefined ? maxTokens : maxTokens + budget,
      ...(budget === undefined ? {} : { thinking: { budgetTokens: budget } }),
      ...(Object.keys(own).length === 0 ? {} : { provider: { 'ai-sdk': own } }),
    }));

const expressible = fc.constantFrom(anthropicModel, otherModel).chain((identity) =>
  tools.chain((toolList) =>
    fc
      .record({
        system: text,
        messages: conversation(
          identity.provider,
          toolList.map((tool) => tool.name),
        ),
        params: params(identity === anthropicModel),
      })
      .map(({ system, messages, params: p }): { identity: typeof identity; request: ModelRequest } => ({
        identity,
        request: { model: identity.modelId, system, messages, tools: toolList, params: p },
      })),
  ),
);

describe('canonicalOfAiSdkCall: the inverse of the forward mapping', () => {
  it('gives back every request the forward mapping expresses, so it hashes the same', () => {
    fc.assert(
      fc.property(expressible, ({ identity, request }) => {
        const options = callOptionsOf(request, languageModel(identity));
        const back = canonicalOfAiSdkCall(options, identity);
        expect(back.request).toEqual(request);
        expect(hashOf(back.request)).toBe(hashOf(request));
        expect(back.leftOut).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('maps what it gave back forward to the same call options', () => {
    fc.assert(
      fc.property(expressible, ({ identity, request }) => {
        const model = languageModel(identity);
        const options = callOptionsOf(request, model);
        expect(callOptionsOf(canonicalOfAiSdkCall(options, identity).request, model)).toEqual(options);
      }),
      { numRuns: 100 },
    );
  });
});
