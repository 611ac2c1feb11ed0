import type { CassetteIndex } from '../cassette/index.js';
import { AliasTable, aliasOpaqueIds } from '../cassette/index.js';
import type { Message, ModelRequest } from '../conversation/index.js';
import type { JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import { changedFields, diffJson } from './diff-json.js';
import type { MissFinding } from '../vocabulary/index.js';
import { describeDivergence } from './divergence.js';

/** A request the cassette could not answer, as the transport saw it. */
export interface MissedCall {
  readonly step: number;
  readonly kind: string;
  readonly index: number;
  readonly requestHash: string;
  readonly canonical: string;
  /** The model request, for model calls: its messages are compared in full. */
  readonly modelRequest?: ModelRequest;
}

/**
 * Describes a miss: its class, the hashes recorded at its position, and the
 * field-level diff of the recorded request against the replayed one. Messages
 * are compared whole (with opaque ids aliased), so the diff says
 * `messages[3].content[0].content...` rather than "a digest changed".
 */
export function divergenceOfMiss(index: CassetteIndex, call: MissedCall): MissFinding {
  const miss = index.classify(call.kind, call.index, call.requestHash);
  const replayed = expand(JSON.parse(call.canonical) as JsonValue, call.modelRequest?.messages);
  const recorded =
    miss.nearest === undefined
      ? undefined
      : expand(miss.nearest.request, recordedMessages(index, miss.nearest.request));
  const diff = miss.classification === 'changed' ? diffJson(recorded, replayed) : [];
  const partial = {
    classification: miss.classification,
    step: call.step,
    kind: call.kind,
    index: call.index,
    actualHash: call.requestHash,
    recordedHashes: miss.recordedHashes,
    changed: changedFields(diff),
    diff,
  };
  return { ...partial, message: describeDivergence(partial) };
}

function recordedMessages(index: CassetteIndex, request: JsonValue): Message[] | undefined {
  if (!isJsonObject(request) || !Array.isArray(request.messages)) return undefined;
  const messages: Message[] = [];
  for (const digest of request.messages) {
    const message = typeof digest === 'string' ? index.message(digest) : undefined;
    if (message === undefined) return undefined;
    messages.push(message);
  }
  return messages;
}

// Puts whole messages, ids aliased, where the canonical request holds their digests.
function expand(canonical: JsonValue, messages: readonly Message[] | undefined): JsonValue {
  if (messages === undefined || !isJsonObject(canonical)) return canonical;
  const aliases = new AliasTable();
  return {
    ...canonical,
    messages: messages.map((message) => aliasOpaqueIds(message, aliases)),
  };
}
