import { ForkpointError } from '../errors/index.js';
import type { JsonValue } from '../json/index.js';
import { BLOB_KEY, LITERAL_KEY, TREE_KEY, referenceKeyOf } from './payload-refs.js';
import { decodingStored } from './stored-json.js';

/** Reads blob bodies by digest; digests it does not know are absent from the map. */
export type BlobReader = (digests: readonly string[]) => Promise<ReadonlyMap<string, string>>;

type Container = { [key: string]: unknown } | unknown[];
interface Hole {
  readonly parent: Container;
  readonly key: string | number;
  readonly digest: string;
  readonly tree: boolean;
}

/**
 * Decodes stored payload texts back into JSON values, fetching the blobs they
 * refer to in one read per level of nesting (usually one). Plain blobs are
 * parsed once and never walked; only roots and `$tree` blobs are. Every call
 * returns freshly parsed objects, so callers may hand them to code that
 * mutates them; within one call, equal plain blobs share one object.
 */
export function decodePayloads(texts: readonly string[], readBlobs: BlobReader): Promise<JsonValue[]> {
  return decodeParsedPayloads(
    decodingStored('a payload', () => texts.map((text) => JSON.parse(text) as unknown)),
    readBlobs,
  );
}

/**
 * {@link decodePayloads} for payload texts the caller has parsed already (a
 * conversation read as one JSON array, say): `values` must be fresh from
 * `JSON.parse`, and are filled in place and returned.
 */
export async function decodeParsedPayloads(values: unknown[], readBlobs: BlobReader): Promise<JsonValue[]> {
  const holes: Hole[] = [];
  for (let i = 0; i < values.length; i++) findHoles(values, i, holes);
  // Most payloads refer to no blob: they are decoded without a read.
  if (holes.length === 0) return values as JsonValue[];
  return fillHoles(values, holes, readBlobs);
}

async function fillHoles(values: unknown[], found: Hole[], readBlobs: BlobReader): Promise<JsonValue[]> {
  let holes = found;
  const bodies = new Map<string, string>();
  const leaves = new Map<string, unknown>();
  while (holes.length > 0) {
    const missing = [...new Set(holes.map((hole) => hole.digest))].filter((digest) => !bodies.has(digest));
    if (missing.length > 0) {
      const fetched = await readBlobs(missing);
      for (const digest of missing) {
        const body = fetched.get(digest);
        if (body === undefined) {
          throw new ForkpointError(
            'STORE_CORRUPT',
            `payload blob ${digest} is missing from the store; the database is incomplete`,
          );
        }
        bodies.set(digest, body);
      }
    }
    holes = decodingStored('a payload blob', () => fillLevel(holes, bodies, leaves));
  }
  return values as JsonValue[];
}

// Fills one level of holes from their bodies; the holes of the level below.
function fillLevel(holes: readonly Hole[], bodies: ReadonlyMap<string, string>, leaves: Map<string, unknown>): Hole[] {
  const deeper: Hole[] = [];
  for (const hole of holes) {
    const body = bodies.get(hole.digest);
    // fillHoles read every digest of the level before, or threw.
    if (body === undefined) throw new Error(`payload blob ${hole.digest} was not read before its level`);
    let value: unknown;
    if (hole.tree) {
      value = JSON.parse(body);
    } else {
      value = leaves.get(hole.digest);
      if (value === undefined) leaves.set(hole.digest, (value = JSON.parse(body)));
    }
    (hole.parent as { [key: string]: unknown })[hole.key as string] = value;
    if (hole.tree) findHoles(hole.parent, hole.key, deeper);
  }
  return deeper;
}

/** Collects the references below `parent[key]` and unwraps literals, without descending into plain blobs. */
function findHoles(parent: Container, key: string | number, out: Hole[]): void {
  const node = (parent as { [key: string]: unknown })[key as string];
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) findHoles(node, i, out);
    return;
  }
  const record = node as { [key: string]: unknown };
  switch (referenceKeyOf(record)) {
    case BLOB_KEY:
      out.push({ parent, key, digest: String(record[BLOB_KEY]), tree: false });
      return;
    case TREE_KEY:
      out.push({ parent, key, digest: String(record[TREE_KEY]), tree: true });
      return;
    case LITERAL_KEY: {
      const inner = record[LITERAL_KEY] as { [key: string]: unknown };
      (parent as { [key: string]: unknown })[key as string] = inner;
      for (const innerKey of Object.keys(inner)) findHoles(inner, innerKey, out);
      return;
    }
    default:
      for (const childKey of Object.keys(record)) findHoles(record, childKey, out);
  }
}
