import fc from 'fast-check';
import type { MessagePart, ModelParams, ModelRequest, ToolDefinition } from '../../../src/conversation/index.js';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import { RequestHasher } from '../../../src/cassette/index.js';

/** The hash a driven run gives `request` as its first call. */
export const hashOf = (request: ModelRequest): string => new RequestHasher().hashModelRequest(request).requestHash;

const word = fc.stringMatching(/^[a-z][a-z_]{0,7}$/);
const json: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(word, tie('value'), { maxKeys: 3, noNullPrototype: true }),
  ),
})).value;
const object: fc.Arbitrary<JsonObject> = fc.dictionary(word, json, { maxKeys: 3, noNullPrototype: true });
const decimal = fc.integer({ min: 0, max: 200 }).map((n) => n / 100);

const part: fc.Arbitrary<MessagePart> = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string() }),
  fc.record({ type: fc.constant('text'), text: fc.string(), citations: fc.array(object, { maxLength: 2 }) }),
  fc.record({ type: fc.constant('thinking'), thinking: fc.string(), signature: fc.string() }),
  fc.record({ type: fc.constant('redacted_thinking'), data: fc.string() }),
  fc.record({ type: fc.constant('tool_use'), id: fc.string(), name: word, input: object }),
  // A string content: the forward mapping sends any other content as its JSON text, which reads back as that text.
  fc.record({ type: fc.constant('tool_result'), toolUseId: fc.string(), content: fc.string(), isError: fc.boolean() }),
  fc.record({
    type: fc.constant('provider'),
    provider: fc.constant('anthropic'),
    block: fc.record({
      type: fc.constantFrom('server_tool_use', 'image', 'search_result'),
      id: fc.string(),
      input: object,
    }),
  }),
);

const tool: fc.Arbitrary<ToolDefinition> = fc.record({ name: word, description: fc.string(), inputSchema: object });

// Fields of the API's own that no neutral field writes: the forward mapping sends them verbatim.
const ownParams = fc
  .dictionary(
    fc.constantFrom('tool_choice', 'service_tier', 'output_config', 'inference_geo', 'speed', 'container'),
    json,
    {
      minKeys: 1,
      maxKeys: 3,
      noNullPrototype: true,
    },
  )
  .map((anthropic) => ({ anthropic }));

const params: fc.Arbitrary<ModelParams> = fc.record(
  {
    // Below what the SDK refuses to send without a stream (about 21,000 tokens of a 10-minute call).
    maxTokens: fc.integer({ min: 1, max: 16_000 }),
    temperature: decimal,
    topP: decimal,
    topK: fc.integer({ min: 0, max: 500 }),
    stopSequences: fc.array(fc.string(), { maxLength: 3 }),
    thinking: fc.record({ budgetTokens: fc.integer({ min: 1024, max: 32_000 }) }),
    provider: ownParams,
  },
  { requiredKeys: ['maxTokens'] },
);

/**
 * Neutral requests the forward mapping (`anthropicBodyOf`) can express: no
 * other provider's parts (it leaves them out), no message envelope (it sends
 * none), tool results with string content, and no own parameter a neutral field
 * overrides or one kept out of the hash (`metadata`, `cache_control`).
 */
export const expressibleRequest: fc.Arbitrary<ModelRequest> = fc.record({
  model: fc.string({ minLength: 1 }),
  system: fc.string(),
  messages: fc.array(
    fc.record({
      role: fc.constantFrom('user' as const, 'assistant' as const),
      content: fc.array(part, { maxLength: 4 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  tools: fc.array(tool, { maxLength: 3 }),
  params,
});
