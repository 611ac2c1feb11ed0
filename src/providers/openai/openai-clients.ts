import { notAClient } from '../provider-errors.js';

// The least of the OpenAI SDK's client each adapter calls, written here so that forkpoint never imports the SDK
// (an optional peer): any `openai` client whose `create` takes a body and returns a promise fits, as does a
// client of a server that speaks the same API. Method syntax on purpose: a method's parameter is compared both
// ways, so the SDK's own, wider, body types still fit these.

/** A tool call in an assistant message sent to Chat Completions: its arguments are a JSON string. */
export type ChatToolCall = {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
};

/** One message of a Chat Completions request, in the kinds the adapter sends. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | { type: 'text'; text: string }[] }
  | {
      role: 'assistant';
      content: string | { type: 'text'; text: string }[] | null;
      tool_calls?: ChatToolCall[];
      audio?: { id: string };
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The body of `POST /chat/completions` the adapter sends: model and messages, then any other parameter. */
export interface ChatCompletionBody {
  readonly model: string;
  readonly messages: ChatMessage[];
  readonly [parameter: string]: unknown;
}

/** An OpenAI client, as far as {@link fromOpenAIChat} uses it: `client.chat.completions.create(body)`. */
export interface OpenAIChatClient {
  readonly chat: { readonly completions: { create(body: ChatCompletionBody): PromiseLike<unknown> } };
}

/**
 * The body of `POST /responses` the adapter sends. Only `model` is named: its `input` holds items kept verbatim
 * from earlier responses, which no narrower type than JSON describes.
 */
export interface ResponsesBody {
  readonly model: string;
  readonly [parameter: string]: unknown;
}

/** An OpenAI client, as far as {@link fromOpenAIResponses} uses it: `client.responses.create(body)`. */
export interface OpenAIResponsesClient {
  readonly responses: { create(body: ResponsesBody): PromiseLike<unknown> };
}

const hasMethod = (owner: unknown, name: string): boolean =>
  typeof owner === 'object' && owner !== null && typeof (owner as Record<string, unknown>)[name] === 'function';

const member = (owner: unknown, name: string): unknown =>
  typeof owner === 'object' && owner !== null ? (owner as Record<string, unknown>)[name] : undefined;

/** The client itself when it has `chat.completions.create`; `USAGE` otherwise (a type can be cast away). */
export function checkChatClient(client: OpenAIChatClient): OpenAIChatClient {
  if (!hasMethod(member(member(client, 'chat'), 'completions'), 'create'))
    throw notAClient('fromOpenAIChat', 'an OpenAI client (`client.chat.completions.create`)');
  return client;
}

/** The client itself when it has `responses.create`; `USAGE` otherwise. */
export function checkResponsesClient(client: OpenAIResponsesClient): OpenAIResponsesClient {
  if (!hasMethod(member(client, 'responses'), 'create'))
    throw notAClient('fromOpenAIResponses', 'an OpenAI client (`client.responses.create`)');
  return client;
}
