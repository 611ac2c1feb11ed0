import type { Message, ModelRequest, ToolRequest } from '../conversation/index.js';
import type { KnownTexts } from '../json/index.js';
import { canonicalJson, sha256Hex, withFields } from '../json/index.js';
import { AliasTable, aliasOpaqueIds, registerOpaqueIds } from './alias-opaque-ids.js';
import { REQUEST_HASH_LENGTH } from './canonical-form.js';
import { DigestListPrefix } from './digest-list-prefix.js';
import { HeadMemo } from './head-memo.js';
import type { MessageDigests } from './message-digests.js';
import { digestArray } from './message-digests.js';

/** A request in canonical form and its hash. */
export interface HashedRequest {
  readonly canonical: string;
  readonly requestHash: string;
}

/** A hashed model request, with the digest of each of its messages. */
export interface HashedModelRequest extends HashedRequest {
  /** The digest of each message: a prefix of the run's digest list, shared, not copied. */
  readonly messageDigests: MessageDigests;
  /** The canonical text of the request's other fields, `"model":..,"params":..,"system":..,"tools":..`. */
  readonly headText: string;
}

/**
 * Hashes one run's requests in the canonical form (see `CANONICAL_FORM`).
 * Each message is digested once, when it first appears, and every later
 * request refers to it by that digest; the digest list itself is hashed as it
 * grows (see {@link DigestListPrefix}), so hashing a request costs its new
 * messages and its head, however long the conversation.
 *
 * One hasher serves one run, in conversation order, because aliases are
 * positional within the run.
 */
export class RequestHasher {
  private readonly aliases = new AliasTable();
  private readonly knownMessages: Message[] = [];
  private readonly knownDigests: string[] = [];
  private readonly prefix = new DigestListPrefix();
  // The canonical text of everything but the messages (`"model":..,"params":..,"system":..,"tools":..`).
  private readonly head = new HeadMemo((head) => canonicalJson(head).slice(1, -1));

  /**
   * Adopts messages whose digests were stored with a checkpoint, so that a
   * restored run continues hashing without re-digesting its past.
   */
  adopt(messages: readonly Message[], digests: readonly string[]): void {
    if (messages.length !== digests.length) throw new Error('adopt: one digest per message is required');
    messages.forEach((message, i) => {
      const digest = digests[i];
      if (digest === undefined) throw new Error('adopt: one digest per message is required');
      registerOpaqueIds(message, this.aliases);
      this.knownMessages.push(message);
      this.knownDigests.push(digest);
      this.prefix.append(digest);
    });
  }

  /** The digests of `messages` (which must extend the conversation hashed so far), as an array of their own. */
  messageDigests(messages: readonly Message[]): readonly string[] {
    return digestArray(this.digestsOf(messages));
  }

  /** The digests of `messages` (which must extend the conversation hashed so far), without copying them. */
  digestsOf(messages: readonly Message[]): MessageDigests {
    this.digestNew(messages);
    return { list: this.knownDigests, length: messages.length };
  }

  /**
   * The digest of the last of `messages` (which must extend the conversation
   * hashed so far), without copying the rest.
   *
   * @param known canonical texts the caller already has for parts of the new messages
   */
  lastDigest(messages: readonly Message[], known?: KnownTexts): string | undefined {
    this.digestNew(messages, known);
    return this.knownDigests[messages.length - 1];
  }

  private digestNew(messages: readonly Message[], texts?: KnownTexts): void {
    const known = this.knownMessages;
    // Only the ends of what both have seen are compared, by identity, so that a step costs O(1) however
    // long the conversation: comparing every earlier message made a run's hashing O(length^2). The
    // machine appends copy-on-write (`[...messages, next]`), so an honest conversation keeps every
    // message object; the ends still catch a conversation rebuilt from copies (decoded, cloned, another
    // run's: every object differs), a last message replaced, dropped or re-appended, a conversation cut
    // short and grown again, and a rewritten opening turn. What they miss is an edit strictly between
    // the two that keeps both ends, which takes code splicing the array on purpose.
    const overlap = Math.min(known.length, messages.length);
    if (overlap > 0) {
      const rewritten = known[0] !== messages[0] ? 0 : known[overlap - 1] !== messages[overlap - 1] ? overlap - 1 : -1;
      if (rewritten >= 0)
        throw new Error(`the conversation was rewritten at message ${rewritten}; a run's messages are append-only`);
    }
    for (const message of messages.slice(known.length)) {
      const aliased = aliasOpaqueIds(message, this.aliases);
      known.push(message);
      const digest = sha256Hex(canonicalJson(aliased, texts), REQUEST_HASH_LENGTH);
      this.knownDigests.push(digest);
      this.prefix.append(digest);
    }
  }

  /** Hashes a model request. */
  hashModelRequest(request: ModelRequest): HashedModelRequest {
    const messageDigests = this.digestsOf(request.messages);
    const headText = this.head.of(request);
    const rest = `],${headText}}`;
    if (messageDigests.length === this.prefix.length)
      return withFields(this.prefix.close(rest), { messageDigests, headText });
    // A request over part of the conversation (no driver sends one): hashed from scratch, in the same form.
    const canonical = `{"messages":[${digestArray(messageDigests)
      .map((digest) => `"${digest}"`)
      .join(',')}${rest}`;
    return { canonical, requestHash: sha256Hex(canonical, REQUEST_HASH_LENGTH), messageDigests, headText };
  }

  /** Hashes a tool request. */
  hashToolRequest(request: ToolRequest): HashedRequest {
    const canonical = canonicalJson({ input: request.input, tool: request.tool });
    return { canonical, requestHash: sha256Hex(canonical, REQUEST_HASH_LENGTH) };
  }
}
