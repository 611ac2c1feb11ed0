import type { JsonValue } from '../json/index.js';
import { sha256Hex } from '../json/index.js';
import {
  BLOB_DIGEST_LENGTH,
  BLOB_KEY,
  EXTERNALIZE_AT_BYTES,
  LITERAL_KEY,
  TREE_KEY,
  referenceKeyOf,
} from './payload-refs.js';

interface Encoded {
  readonly text: string;
  readonly hasRefs: boolean;
}

/**
 * Encodes a JSON value for storage: canonical text in which every object or
 * array of {@link EXTERNALIZE_AT_BYTES} or more, the root included, is replaced
 * by a reference to a content-addressed blob. New blobs are added to `sink`.
 * The same subtree always encodes to the same blob, so a tool output held by
 * a step, a message and a checkpoint is stored once.
 *
 * Costs one pass over the value; callers encode each payload once, when it is
 * first observed.
 */
export function encodePayload(value: JsonValue, sink: Map<string, string>): string {
  return encodeNode(value, sink, undefined).text;
}

/**
 * Encodes the payloads of one write (a step's request, response, message and
 * checkpoint) into one set of blobs. A subtree that several of them hold (a
 * tool output is the step's response and part of the message it appends) is
 * serialized and hashed once: its encoding is remembered for the batch, whose
 * blobs already hold everything it refers to. Values must not change while
 * the batch is in use.
 */
export class PayloadBatch {
  /** Every blob the batch's payloads refer to, by digest. */
  readonly blobs = new Map<string, string>();
  private readonly externalized = new Map<object, Encoded>();

  /** The stored text of `value`; its blobs join {@link blobs}. */
  encode(value: JsonValue): string {
    return encodeNode(value, this.blobs, this.externalized).text;
  }

  /**
   * Like {@link encode}, but the value itself is stored as a blob however
   * small it is, and the text returned is the reference: for a value that many
   * rows repeat (a run's request head), which then costs each row a digest.
   */
  encodeAsBlob(value: JsonValue): string {
    const { text, hasRefs } = encodeNode(value, this.blobs, this.externalized);
    if (REFERENCE_TEXT.test(text)) return text;
    const digest = sha256Hex(text, BLOB_DIGEST_LENGTH);
    this.blobs.set(digest, text);
    return `{${JSON.stringify(hasRefs ? TREE_KEY : BLOB_KEY)}:"${digest}"}`;
  }

  /**
   * Stores JSON text as it is, in one plain blob, and returns its digest: for
   * values kept whole on purpose (a conversation segment), whose large parts
   * are also stored on their own.
   */
  storeWhole(json: string): string {
    const digest = sha256Hex(json, BLOB_DIGEST_LENGTH);
    this.blobs.set(digest, json);
    return digest;
  }
}

/** An encoding, with every blob it refers to, so that a cached one can still fill any sink. */
interface CachedEncoding extends Encoded {
  readonly blobs: ReadonlyArray<readonly [string, string]>;
}

// Frozen values cannot change, so their encodings are remembered: a replay serves the same frozen
// cassette responses run after run, and each is encoded once. Nothing else is frozen by forkpoint.
const frozenEncodings = new WeakMap<object, CachedEncoding>();

// The whole text of an encoding that is a reference (a user object of this shape is wrapped in `$literal`).
const REFERENCE_TEXT = /^\{"\$(?:blob|tree)":"[0-9a-f]+"\}$/;

// `externalized`: the subtrees of this sink already stored as blobs (a batch's memo), if any.
type Externalized = Map<object, Encoded> | undefined;

function encodeNode(node: JsonValue, sink: Map<string, string>, externalized: Externalized): Encoded {
  if (typeof node !== 'object' || node === null) return { text: JSON.stringify(node), hasRefs: false };
  if (!Object.isFrozen(node)) return externalized?.get(node) ?? encodeContainer(node, sink, externalized);
  let cached = frozenEncodings.get(node);
  if (cached === undefined) {
    const own = new Map<string, string>();
    const encoded = encodeContainer(node, own, undefined);
    cached = { ...encoded, blobs: [...own] };
    frozenEncodings.set(node, cached);
  }
  for (const [digest, body] of cached.blobs) sink.set(digest, body);
  return cached;
}

function encodeContainer(node: Exclude<JsonValue, string | number | boolean | null>, sink: Map<string, string>, externalized: Externalized): Encoded {
  let hasRefs = false;
  let text: string;
  if (Array.isArray(node)) {
    const items: string[] = [];
    for (const item of node as readonly JsonValue[]) {
      const encoded = encodeNode(item, sink, externalized);
      hasRefs ||= encoded.hasRefs;
      items.push(encoded.text);
    }
    text = `[${items.join(',')}]`;
  } else {
    const record = node as { readonly [key: string]: JsonValue };
    const keys = Object.keys(record).sort();
    const fields: string[] = [];
    for (const key of keys) {
      const encoded = encodeNode(record[key]!, sink, externalized);
      hasRefs ||= encoded.hasRefs;
      fields.push(`${JSON.stringify(key)}:${encoded.text}`);
    }
    text = `{${fields.join(',')}}`;
    if (referenceKeyOf(record) !== undefined) {
      // Marked as holding references so that readers walk into it and unwrap it.
      text = `{${JSON.stringify(LITERAL_KEY)}:${text}}`;
      hasRefs = true;
    }
  }
  if (text.length < EXTERNALIZE_AT_BYTES) return { text, hasRefs };
  const digest = sha256Hex(text, BLOB_DIGEST_LENGTH);
  sink.set(digest, text);
  const reference: Encoded = { text: `{${JSON.stringify(hasRefs ? TREE_KEY : BLOB_KEY)}:"${digest}"}`, hasRefs: true };
  externalized?.set(node, reference);
  return reference;
}
