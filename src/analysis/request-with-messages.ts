import { AliasTable, aliasOpaqueIds } from '../cassette/index.js';
import type { Message } from '../conversation/index.js';
import type { JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';

/** A message of a run's conversation with its digest in the canonical request form (a cassette's `messages`). */
export interface DigestedMessage {
  readonly digest: string;
  readonly message: Message;
}

/**
 * A canonical model request with its messages put back in full (opaque ids
 * aliased, as the hash saw them) where it holds their digests, so that a diff
 * says which part of which message changed instead of "a digest changed".
 * Any other request, or one naming a digest `messages` lacks, comes back as is.
 */
export function requestWithMessages(request: JsonValue, messages: readonly DigestedMessage[] | undefined): JsonValue {
  if (messages === undefined || !isJsonObject(request) || !Array.isArray(request.messages)) return request;
  const byDigest = new Map(messages.map(({ digest, message }) => [digest, message]));
  const aliases = new AliasTable();
  const expanded: JsonValue[] = [];
  for (const digest of request.messages) {
    const message = typeof digest === 'string' ? byDigest.get(digest) : undefined;
    if (message === undefined) return request;
    expanded.push(aliasOpaqueIds(message, aliases));
  }
  return { ...request, messages: expanded };
}

/** True when a model request still holds its messages as digests: their bytes are not there to judge. */
export function holdsMessageDigests(request: JsonValue): boolean {
  return (
    isJsonObject(request) &&
    Array.isArray(request.messages) &&
    request.messages.some((message) => typeof message === 'string')
  );
}
