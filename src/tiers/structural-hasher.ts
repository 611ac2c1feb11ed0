import type { Message, ModelRequest, ToolRequest } from '../conversation/index.js';
import type { HashedRequest } from '../cassette/index.js';
import { HeadMemo, REQUEST_HASH_LENGTH, RequestHasher } from '../cassette/index.js';
import type { JsonObject } from '../json/index.js';
import { stableJson, sha256Hex } from '../json/index.js';
import { shapeJson, shapeString } from './shape-json.js';
import { shapeMessage } from './shape-protocol.js';

/**
 * The canonical form of the structural tier. Version 1 keys a request by its
 * shape, not its content:
 *
 * - a model request is `{ head, messages }`: `messages` are the digests of the
 *   shaped messages in the canonical form `forkpoint-canonical/1` (opaque ids
 *   aliased), and `head` is the digest of `{ model, params, system, tools }`
 *   with the system prompt shaped (the tools and parameters are the build's
 *   code, so they are kept);
 * - a tool request is `{ input, tool }` with the input shaped.
 *
 * A structural cassette stores a short summary of each request beside its
 * hash: `{ messages: count }` for a model request, and nothing for a tool
 * request, whose input stands in the recorded model turn that asked for it.
 */
export const STRUCTURAL_FORM = 'forkpoint-structural/1';

/** A request hashed by its shape, with the summary a structural cassette keeps of it. */
export interface StructurallyHashed extends HashedRequest {
  readonly summary: JsonObject;
}

/**
 * Hashes one run's requests by their shape, in conversation order. Shaped
 * messages are cached by identity, so each message is shaped and digested once.
 */
export class StructuralHasher {
  private readonly inner = new RequestHasher();
  private readonly shaped = new WeakMap<Message, Message>();
  // The head with its system prompt shaped; the tools and params are the build's code and are kept.
  private readonly head = new HeadMemo((head) =>
    sha256Hex(stableJson({ ...head, system: shapeString(head.system) }), REQUEST_HASH_LENGTH),
  );

  /** Hashes the shape of a model request. */
  hashModelRequest(request: ModelRequest): StructurallyHashed {
    const digests = this.inner.messageDigests(request.messages.map((message) => this.shapeOf(message)));
    const head = this.head.of(request);
    const canonical = `{"head":"${head}","messages":${JSON.stringify(digests)}}`;
    return { canonical, requestHash: sha256Hex(canonical, REQUEST_HASH_LENGTH), summary: { messages: digests.length } };
  }

  /** Hashes the shape of a tool request. */
  hashToolRequest(request: ToolRequest): StructurallyHashed {
    const input = shapeJson(request.input);
    const canonical = stableJson({ input, tool: request.tool });
    return { canonical, requestHash: sha256Hex(canonical, REQUEST_HASH_LENGTH), summary: {} };
  }

  private shapeOf(message: Message): Message {
    let shaped = this.shaped.get(message);
    if (shaped === undefined) this.shaped.set(message, (shaped = shapeMessage(message)));
    return shaped;
  }
}
