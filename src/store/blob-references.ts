// Payload references as they appear in stored JSON text. A user string cannot
// produce this pattern, because its quotes are escaped inside a JSON string; a
// `$literal`-wrapped object can, which only keeps a blob alive, never frees one.
const REFERENCE = /"\$(blob|tree)":"([0-9a-f]{32})"/g;

/** The blobs some stored text refers to: all of them, and the `$tree` ones, whose bodies refer further. */
export interface References {
  readonly all: Set<string>;
  readonly trees: Set<string>;
}

/** An empty set of references. */
export const noReferences = (): References => ({ all: new Set(), trees: new Set() });

/** Adds every blob `text` refers to directly. */
export function collectReferences(text: string | null, into: References): void {
  if (text === null) return;
  for (const match of text.matchAll(REFERENCE)) {
    const digest = match[2];
    // Both groups take part in every match of REFERENCE: this is the type's undefined, never a match's.
    if (digest === undefined) continue;
    into.all.add(digest);
    if (match[1] === 'tree') into.trees.add(digest);
  }
}

/**
 * Adds every blob a step row refers to: its conversation segment's digest,
 * then the references in its payload columns (its segment, request, response, message and checkpoint).
 */
export function collectRowReferences([segment, ...payloads]: ReadonlyArray<string | null>, into: References): void {
  if (segment !== null && segment !== undefined) into.all.add(segment);
  for (const text of payloads) collectReferences(text, into);
}

/**
 * Closes `references` over the `$tree` blobs among them, whose bodies refer
 * to further blobs; `$blob` bodies are plain JSON and are never read.
 */
export function closeOverTrees(
  references: References,
  readBodies: (digests: readonly string[]) => readonly string[],
): References {
  let frontier = [...references.trees];
  const expanded = new Set<string>();
  while (frontier.length > 0) {
    for (const digest of frontier) expanded.add(digest);
    for (const body of readBodies(frontier)) collectReferences(body, references);
    frontier = [...references.trees].filter((digest) => !expanded.has(digest));
  }
  return references;
}
