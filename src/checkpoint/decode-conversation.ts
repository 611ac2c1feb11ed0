import type { Message } from '../conversation/index.js';
import { isMessage } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonValue } from '../json/index.js';
import { isJsonArray } from '../json/index.js';
import { decodeParsedPayloads, decodingStored } from '../payload/index.js';
import type { MessageLog, StoreReader } from '../store/index.js';
import type { ConversationSegment } from './checkpoint-state.js';
import { rowMessageDigests } from './row-messages.js';

/** Stored payloads and the conversation read with them, decoded. */
export interface DecodedConversation {
  /** The payloads, in the order given. */
  readonly payloads: JsonValue[];
  /** Every message of the logs, in order. */
  readonly messages: Message[];
  /** Each message's digest, in the same order. */
  readonly digests: string[];
}

/**
 * Decodes stored payload texts and message logs in one pass, so that every
 * blob they need is fetched in one read per level of nesting. A log's
 * conversation segments are plain JSON, parsed as they are; its other
 * messages are decoded.
 *
 * @param known blob bodies read already (a restore reads them with its rows); only the others are fetched
 */
export async function decodeConversation(
  store: StoreReader,
  payloads: readonly string[],
  logs: readonly MessageLog[],
  known?: ReadonlyMap<string, string>,
): Promise<DecodedConversation> {
  const { values, pieces, digests } = decodingStored(`a checkpoint or message of ${store.location}`, () =>
    parse(store, payloads, logs),
  );
  const decoded = await decodeParsedPayloads(values, (wanted) =>
    known === undefined ? store.readBlobs(wanted) : readMissing(store, known, wanted),
  );
  const messages: Message[] = [];
  for (const piece of pieces) {
    if (typeof piece !== 'number') for (const message of piece) messages.push(message);
    else {
      // A row that appended several messages (a wrapped loop's model step) holds them as a list.
      const stored = decoded[piece];
      for (const message of isJsonArray(stored) ? stored : [stored]) {
        if (!isMessage(message)) {
          throw new ForkpointError(
            'STORE_CORRUPT',
            `a message in ${store.location} is not one forkpoint wrote (a role and content parts in the provider-neutral shape)`,
          );
        }
        messages.push(message);
      }
    }
  }
  if (digests.length !== messages.length) {
    throw new ForkpointError(
      'STORE_CORRUPT',
      `${store.location} holds ${messages.length} messages for ${digests.length} message digests`,
    );
  }
  return { payloads: decoded.slice(0, payloads.length), messages, digests };
}

// The blobs wanted, from those read already; a store is asked only for the others (none, after a restore's read).
async function readMissing(
  store: StoreReader,
  known: ReadonlyMap<string, string>,
  wanted: readonly string[],
): Promise<ReadonlyMap<string, string>> {
  const missing = wanted.filter((digest) => !known.has(digest));
  const fetched = missing.length === 0 ? undefined : await store.readBlobs(missing);
  const found = new Map<string, string>();
  for (const digest of wanted) {
    const body = known.get(digest) ?? fetched?.get(digest);
    if (body !== undefined) found.set(digest, body);
  }
  return found;
}

// The payloads and logs parsed: each log's pieces in order, its segments as parsed arrays, its other
// messages as positions in `values`.
function parse(
  store: StoreReader,
  payloads: readonly string[],
  logs: readonly MessageLog[],
): { values: unknown[]; pieces: Array<Message[] | number>; digests: string[] } {
  const values: unknown[] = payloads.map((text) => JSON.parse(text) as unknown);
  const pieces: Array<Message[] | number> = [];
  const digests: string[] = [];
  for (const log of logs) {
    for (const text of log.segments) {
      const segment = JSON.parse(text) as Partial<ConversationSegment>;
      if (!Array.isArray(segment.messages) || !isList(segment.digests)) {
        throw new ForkpointError(
          'STORE_CORRUPT',
          `a conversation segment in ${store.location} is not a list of messages with their digests`,
        );
      }
      pieces.push(segment.messages as Message[]);
      for (const digest of segment.digests) digests.push(digest);
    }
    // One parse of the log's messages joined, not one per message: a restore reads many small ones.
    if (log.messages.length > 0)
      for (const message of JSON.parse(`[${log.messages.join(',')}]`) as unknown[])
        pieces.push(values.push(message) - 1);
    for (const digest of log.digests) for (const one of rowMessageDigests(digest)) digests.push(one);
  }
  return { values, pieces, digests };
}

// `Array.isArray` would narrow the list to `any[]`.
function isList<T>(value: readonly T[] | undefined): value is readonly T[] {
  return Array.isArray(value);
}
