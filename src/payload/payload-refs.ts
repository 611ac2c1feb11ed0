/**
 * How a stored payload points at a subtree stored elsewhere. A `$blob` holds
 * plain JSON; a `$tree` holds JSON with further references inside, so a reader
 * only walks the subtrees that need it. A user object that happens to look
 * like a reference is wrapped in `$literal`.
 */
export const BLOB_KEY = '$blob';
/** See {@link BLOB_KEY}. */
export const TREE_KEY = '$tree';
/** See {@link BLOB_KEY}. */
export const LITERAL_KEY = '$literal';

/**
 * Subtrees whose canonical text is at least this long are stored once, by
 * digest, and referred to from every payload, message and checkpoint that
 * holds them. Smaller ones are cheaper to repeat than to index.
 */
export const EXTERNALIZE_AT_BYTES = 256;

/** Hex characters of a blob digest (sha256, 128 bits). */
export const BLOB_DIGEST_LENGTH = 32;

/** One stored subtree: its digest and canonical text. */
export interface PayloadBlob {
  readonly digest: string;
  readonly body: string;
}

/** The stored text of a reference to blob `digest`: a `$tree` when its body holds references, else a `$blob`. */
export function referenceText(digest: string, holdsReferences = false): string {
  return `{"${holdsReferences ? TREE_KEY : BLOB_KEY}":"${digest}"}`;
}

const REFERENCE_TEXT = /^\{"\$(?:blob|tree)":"[0-9a-f]{32}"\}$/;

/** True when `text` is exactly the stored text of one reference (see {@link referenceText}), and nothing else. */
export function isReferenceText(text: string): boolean {
  return text.length === 44 && REFERENCE_TEXT.test(text);
}

/** The single key of `node` when it is one of the reserved reference shapes. */
export function referenceKeyOf(node: object): string | undefined {
  let only: string | undefined;
  for (const key in node) {
    if (only !== undefined) return undefined;
    only = key;
  }
  return only === BLOB_KEY || only === TREE_KEY || only === LITERAL_KEY ? only : undefined;
}
