import fc from 'fast-check';
import type { Message, MessagePart, ModelParams, ModelRequest } from '../../../src/conversation/index.js';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';

// Canonical requests that `chatBodyOf` writes one way only, so that its inverse can give them back exactly:
// a user turn is text or tool results (chatBodyOf moves a turn's results before its text), no two result turns
// follow each other (their tool messages would read as one turn), no turn is empty, results are not errors (the
// API has no error flag), a string result is not the JSON text of another value, and only OpenAI's parameters
// and parts are set (chatBodyOf leaves out the others).

const text = fc.string({ maxLength: 12 });
// As the wire carries JSON: fast-check's JSON values include -0, which JSON text writes as 0.
const json = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as JsonValue);
const object = fc.dictionary(text, json, { maxKeys: 3 }) as fc.Arbitrary<JsonObject>;

/** True for a string the inverse reads back as the JSON value it spells. */
export function spellsJson(candidate: string): boolean {
  try {
    const parsed: unknown = JSON.parse(candidate);
    return typeof parsed !== 'string' && JSON.stringify(parsed) === candidate;
  } catch {
    return false;
  }
}

const resultContent: fc.Arbitrary<JsonValue> = fc.oneof(
  object,
  fc.array(json, { maxLength: 3 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  text.filter((candidate) => !spellsJson(candidate)),
);

type Turn = { kind: 'user' | 'results' | 'assistant'; message: Message };

const userTurn: fc.Arbitrary<Turn> = fc.array(text, { minLength: 1, maxLength: 3 }).map((texts) => ({
  kind: 'user',
  message: { role: 'user', content: texts.map((t) => ({ type: 'text', text: t })) },
}));

const resultsTurn: fc.Arbitrary<Turn> = fc
  .array(fc.tuple(fc.nat(99), resultContent), { minLength: 1, maxLength: 3 })
  .map((results) => ({
    kind: 'results',
    message: {
      role: 'user',
      content: results.map(([n, content]) => ({
        type: 'tool_result',
        toolUseId: `call_${n}`,
        content,
        isError: false,
      })),
    },
  }));

const assistantTurn: fc.Arbitrary<Turn> = fc
  .record({
    texts: fc.array(text, { maxLength: 2 }),
    audio: fc.option(fc.nat(99), { nil: undefined }),
    calls: fc.array(fc.tuple(fc.nat(99), text, object), { maxLength: 2 }),
  })
  .filter(({ texts, audio, calls }) => texts.length + calls.length + (audio === undefined ? 0 : 1) > 0)
  .map(({ texts, audio, calls }) => {
    const content: MessagePart[] = [
      ...texts.map((t): MessagePart => ({ type: 'text', text: t })),
      ...(audio === undefined
        ? []
        : [{ type: 'provider', provider: 'openai', block: { type: 'audio', id: `audio_${audio}` } } as const]),
      ...calls.map(([n, name, input]): MessagePart => ({ type: 'tool_use', id: `call_${n}`, name, input })),
    ];
    return { kind: 'assistant', message: { role: 'assistant', content } };
  });

const conversation: fc.Arbitrary<Message[]> = fc
  .array(fc.oneof(userTurn, resultsTurn, assistantTurn), { maxLength: 6 })
  .filter((turns) => turns.every((turn, i) => !(turn.kind === 'results' && turns[i - 1]?.kind === 'results')))
  .map((turns) => turns.map((turn) => turn.message));

// Parameters chatBodyOf sends verbatim from params.provider.openai, as a user's build would set them.
const OWN_PARAMETERS = [
  'seed',
  'tool_choice',
  'reasoning_effort',
  'n',
  'response_format',
  'parallel_tool_calls',
  'service_tier',
];

const tenths = fc.integer({ min: 0, max: 20 }).map((n) => n / 10);

const params: fc.Arbitrary<ModelParams> = fc
  .record({
    maxTokens: fc.nat(100_000),
    temperature: fc.option(tenths, { nil: undefined }),
    topP: fc.option(tenths, { nil: undefined }),
    stopSequences: fc.option(fc.array(text, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    own: fc.option(fc.dictionary(fc.constantFrom(...OWN_PARAMETERS), json, { minKeys: 1, maxKeys: 3 }), {
      nil: undefined,
    }),
  })
  .map(({ maxTokens, temperature, topP, stopSequences, own }) => ({
    maxTokens,
    ...(temperature === undefined ? {} : { temperature }),
    ...(topP === undefined ? {} : { topP }),
    ...(stopSequences === undefined ? {} : { stopSequences }),
    ...(own === undefined ? {} : { provider: { openai: own } }),
  }));

/** A canonical request the forward mapping writes one way only. */
export const expressibleRequest: fc.Arbitrary<ModelRequest> = fc.record({
  model: text,
  system: text,
  messages: conversation,
  tools: fc.array(fc.record({ name: text, description: text, inputSchema: object }), { maxLength: 3 }),
  params,
});
