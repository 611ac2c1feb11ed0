import type { JsonValue } from '../json/index.js';
import { isJsonArray, sha256Hex } from '../json/index.js';
import {
  BLOB_DIGEST_LENGTH,
  BLOB_KEY,
  EXTERNALIZE_AT_BYTES,
  LITERAL_KEY,
  TREE_KEY,
  referenceText,
} from './payload-refs.js';

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
  return encodeNode(value, newPass(sink));
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
  private readonly externalized = new Map<object, string>();
  private readonly canonical = new Map<object, string>();

  /** The stored text of `value`; its blobs join {@link blobs}. */
  encode(value: JsonValue): string {
    return encodeNode(value, newPass(this.blobs, this.externalized, this.canonical));
  }

  /**
   * The canonical JSON of a container the batch stored whole as a blob (one
   * with no references inside): a tool output's, so that digesting the message
   * that carries it does not serialize it again.
   */
  readonly canonicalTextOf = (container: object): string | undefined => this.canonical.get(container);

  /**
   * Stores JSON text as it is, in one plain blob, and returns its digest: for
   * values kept whole on purpose (a conversation segment, whose large parts
   * are also stored on their own; a run's request head, which its rows share).
   */
  storeWhole(json: string): string {
    const digest = sha256Hex(json, BLOB_DIGEST_LENGTH);
    this.blobs.set(digest, json);
    return digest;
  }
}

/** An encoding, with every blob it refers to, so that a cached one can still fill any sink. */
interface CachedEncoding {
  readonly text: string;
  readonly hasRefs: boolean;
  readonly blobs: ReadonlyArray<readonly [string, string]>;
}

// Frozen values cannot change, so their encodings are remembered: a replay serves the same frozen
// cassette responses run after run, and each is encoded once. Nothing else is frozen by forkpoint.
const frozenEncodings = new WeakMap<object, CachedEncoding>();

/**
 * One encoding pass: where new blobs go, the batch's memo of subtrees already
 * stored as blobs (their reference texts), and whether the text encoded so
 * far at the current level holds references. One mutable pass instead of a
 * result object per node keeps the per-step garbage down.
 */
interface Pass {
  readonly sink: Map<string, string>;
  readonly externalized: Map<object, string> | undefined;
  /** Where the canonical texts of externalized containers without references go. */
  readonly canonical: Map<object, string> | undefined;
  refs: boolean;
}

const newPass = (
  sink: Map<string, string>,
  externalized?: Map<object, string>,
  canonical?: Map<object, string>,
): Pass => ({
  sink,
  externalized,
  canonical,
  refs: false,
});

function encodeNode(node: JsonValue, pass: Pass): string {
  if (typeof node !== 'object' || node === null) return JSON.stringify(node);
  if (!Object.isFrozen(node)) {
    const stored = pass.externalized?.get(node);
    if (stored === undefined) return encodeContainer(node, pass);
    pass.refs = true;
    return stored;
  }
  let cached = frozenEncodings.get(node);
  if (cached === undefined) {
    const own = newPass(new Map());
    const text = encodeContainer(node, own);
    cached = { text, hasRefs: own.refs, blobs: [...own.sink] };
    frozenEncodings.set(node, cached);
  }
  for (const [digest, body] of cached.blobs) pass.sink.set(digest, body);
  if (cached.hasRefs) pass.refs = true;
  return cached.text;
}

function encodeContainer(node: Exclude<JsonValue, string | number | boolean | null>, pass: Pass): string {
  const siblingsRefs = pass.refs;
  pass.refs = false;
  let text: string;
  let wrapped = false;
  if (isJsonArray(node)) {
    text = '[';
    let separator = '';
    for (const item of node) {
      text += separator + encodeNode(item, pass);
      separator = ',';
    }
    text += ']';
  } else {
    const keys = Object.keys(node).sort();
    text = '{';
    let separator = '';
    for (const key of keys) {
      const value = node[key];
      // A payload is checked JSON, which has no undefined field; JSON.stringify would leave one out too.
      if (value === undefined) continue;
      text += `${separator}${JSON.stringify(key)}:${encodeNode(value, pass)}`;
      separator = ',';
    }
    text += '}';
    const onlyKey = keys.length === 1 ? keys[0] : undefined;
    if (onlyKey !== undefined && isReferenceKey(onlyKey)) {
      // Marked as holding references so that readers walk into it and unwrap it.
      text = `{${JSON.stringify(LITERAL_KEY)}:${text}}`;
      pass.refs = true;
      wrapped = true;
    }
  }
  const refs = pass.refs;
  if (text.length < EXTERNALIZE_AT_BYTES) {
    pass.refs = siblingsRefs || refs;
    return text;
  }
  const digest = sha256Hex(text, BLOB_DIGEST_LENGTH);
  pass.sink.set(digest, text);
  const reference = referenceText(digest, refs);
  pass.externalized?.set(node, reference);
  // Without references (or a literal wrapper) the text is the canonical JSON of the node itself.
  if (!refs && !wrapped) pass.canonical?.set(node, text);
  pass.refs = true;
  return reference;
}

const isReferenceKey = (key: string): boolean => key === BLOB_KEY || key === TREE_KEY || key === LITERAL_KEY;
