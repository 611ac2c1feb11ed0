import fc from 'fast-check';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import { isJsonObject } from '../../../src/json/index.js';

/** How a probe reaches the session: its `fetch` called with a URL string, a `URL`, a `Request`, or its middleware. */
export type ProbeRoute = 'fetch-string' | 'fetch-url' | 'fetch-request' | 'middleware';

/** A body a probe sends: JSON text, other text, bytes, none, or a kind of body no SDK sends (a form). */
export type ProbeBody =
  | { readonly kind: 'json'; readonly value: JsonValue }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'form'; readonly fields: Readonly<Record<string, string>> }
  | { readonly kind: 'none' };

/** One HTTP request a loop might send through a session. */
export interface WireProbe {
  readonly type: 'wire';
  readonly route: ProbeRoute;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ProbeBody;
}

/** One call of a wrapped tool, with any input at all. */
export interface ToolProbe {
  readonly type: 'tool';
  readonly tool: string;
  readonly input: unknown;
}

/** A call a loop makes through a session. */
export type Probe = WireProbe | ToolProbe;

/** What a recording holds, in the order the loop made it: each model request's body and path, each tool call. */
export type RecordedCall =
  | { readonly type: 'model'; readonly path: string; readonly body: JsonObject }
  | { readonly type: 'tool'; readonly tool: string; readonly input: JsonObject };

const PATHS = [
  '/v1/messages',
  '/v1/chat/completions',
  '/v1/models',
  '/v1/responses',
  '/v1/messages/count_tokens',
  '/v1/messages/batches',
  '/v1/embeddings',
];

/** A recorded call sent as it was recorded (its model request as the SDK sent it). */
export const faithful = (call: RecordedCall): Probe =>
  call.type === 'tool'
    ? { type: 'tool', tool: call.tool, input: call.input }
    : { type: 'wire', route: 'fetch-string', method: 'POST', path: call.path, headers: {}, body: jsonBody(call.body) };

const jsonBody = (value: JsonValue): ProbeBody => ({ kind: 'json', value });

// A recorded body changed the way a loop's bug or a new build would change it.
function mutatedBody(bodies: readonly JsonObject[]): fc.Arbitrary<JsonValue> {
  return fc
    .tuple(
      fc.constantFrom(...bodies),
      fc.oneof(
        fc.record({
          op: fc.constant('set' as const),
          key: fc.string({ maxLength: 12 }),
          value: fc.jsonValue({ maxDepth: 2 }),
        }),
        fc.record({ op: fc.constant('delete' as const), index: fc.nat() }),
        fc.record({ op: fc.constant('stream' as const), value: fc.boolean() }),
        fc.record({ op: fc.constant('trim' as const), keep: fc.nat({ max: 4 }) }),
      ),
    )
    .map(([body, change]): JsonValue => {
      const copy: Record<string, JsonValue> = structuredClone(body);
      switch (change.op) {
        case 'set':
          Object.defineProperty(copy, change.key, { value: change.value, enumerable: true, writable: true });
          return copy;
        case 'delete': {
          const keys = Object.keys(copy);
          const key = keys[change.index % Math.max(keys.length, 1)];
          if (key !== undefined) Reflect.deleteProperty(copy, key);
          return copy;
        }
        case 'stream':
          return { ...copy, stream: change.value };
        case 'trim': {
          const messages = copy.messages;
          return Array.isArray(messages) ? { ...copy, messages: messages.slice(0, change.keep) } : copy;
        }
      }
    });
}

function bodyOf(bodies: readonly JsonObject[]): fc.Arbitrary<ProbeBody> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...bodies).map(jsonBody) },
    { weight: 4, arbitrary: mutatedBody(bodies).map(jsonBody) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => jsonBody(value as JsonValue)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((text): ProbeBody => ({ kind: 'text', text })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...bodies).map((body): ProbeBody => ({
        kind: 'bytes',
        bytes: new TextEncoder().encode(JSON.stringify(body)),
      })),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 32 }).map((bytes): ProbeBody => ({ kind: 'bytes', bytes })) },
    {
      weight: 1,
      arbitrary: fc
        .dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 })
        .map((fields): ProbeBody => ({ kind: 'form', fields })),
    },
    { weight: 1, arbitrary: fc.constant<ProbeBody>({ kind: 'none' }) },
  );
}

/** Any HTTP request a loop might send, around the bodies a recording holds. */
export function wireProbe(bodies: readonly JsonObject[]): fc.Arbitrary<WireProbe> {
  return fc.record({
    type: fc.constant('wire' as const),
    route: fc.constantFrom<ProbeRoute>('fetch-string', 'fetch-url', 'fetch-request', 'middleware'),
    method: fc.oneof({ weight: 5, arbitrary: fc.constant('POST') }, fc.constantFrom('GET', 'PUT', 'DELETE', 'post')),
    path: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PATHS) }, fc.webPath()),
    headers: fc.oneof(
      { weight: 4, arbitrary: fc.constant({}) },
      fc.constantFrom({ 'anthropic-beta': 'files-api-2025-04-14' }, { 'x-stainless-retry-count': '1' }),
    ),
    body: bodyOf(bodies),
  });
}

/** Any call of a wrapped tool: a recorded input, another object, or not an object at all. */
export function toolProbe(tools: readonly string[], inputs: readonly JsonObject[]): fc.Arbitrary<ToolProbe> {
  return fc.record({
    type: fc.constant('tool' as const),
    tool: fc.constantFrom(...tools),
    input: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...inputs) },
      {
        weight: 2,
        arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      },
      fc.anything({ maxDepth: 2 }),
    ),
  });
}

/** The model bodies of a recording. */
export const bodiesOf = (calls: readonly RecordedCall[]): JsonObject[] =>
  calls.flatMap((call) => (call.type === 'model' ? [call.body] : []));

/** The tool inputs of a recording. */
export const inputsOf = (calls: readonly RecordedCall[]): JsonObject[] =>
  calls.flatMap((call) => (call.type === 'tool' ? [call.input] : []));

/** The `RequestInit` body of a probe. */
export function initBody(body: ProbeBody): string | Uint8Array | URLSearchParams | undefined {
  switch (body.kind) {
    case 'json':
      return JSON.stringify(body.value);
    case 'text':
      return body.text;
    case 'bytes':
      return body.bytes;
    case 'form':
      return new URLSearchParams(body.fields);
    case 'none':
      return undefined;
  }
}

/** Whether a value the emulator received is a model request body (it keeps every body it was sent). */
export const isBody = (value: JsonValue): value is JsonObject => isJsonObject(value);
