import type { Message, ModelResponse, ToolResponse } from '../conversation/index.js';
import { isModelResponse, isToolResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import { deepFreeze } from '../json/index.js';
import type { Cassette, CassetteEntry } from './cassette.js';
import { formatCassetteKey } from './cassette-key.js';

/** Why a request missed, and the recorded entry it is best compared with. */
export interface Miss {
  readonly classification: 'changed' | 'reordered' | 'new-call';
  /** The hashes recorded at the requested position. */
  readonly recordedHashes: readonly string[];
  /** The entry at the same position, or the one with the same hash elsewhere. */
  readonly nearest: CassetteEntry | undefined;
}

/**
 * Looks a cassette up by `kind:index:hash` and keeps track of which positions
 * a replay asked for. The position lets one request recur with different
 * answers (retries); the hash turns the lookup into a check.
 */
export class CassetteIndex {
  // The answers by key, of the type their kind says, checked once here rather than on every lookup.
  private readonly models = new Map<string, ModelResponse>();
  private readonly tools = new Map<string, ToolResponse>();
  private readonly byPosition = new Map<string, CassetteEntry[]>();
  private readonly byHash = new Map<string, CassetteEntry[]>();
  // Positions (`kind:index`), not entries: a position asked with another hash is a miss, reported as one.
  private readonly asked = new Set<string>();
  private readonly messagesByDigest: Map<string, Message>;

  /**
   * Indexes a cassette and freezes its responses: a replay serves them as
   * they are, without copying (the machine never changes what it is given),
   * and a frozen response's encoding is computed once however often it is served.
   * A response that is not of its entry's kind (a model response, or a tool's
   * `{ output, isError }`) is `CASSETTE_INVALID`.
   */
  constructor(readonly cassette: Cassette) {
    for (const entry of cassette.entries) {
      const { response } = entry;
      const key = formatCassetteKey(entry);
      if (entry.kind === 'model' && isModelResponse(response)) this.models.set(key, deepFreeze(response));
      else if (entry.kind !== 'model' && isToolResponse(response)) this.tools.set(key, deepFreeze(response));
      else throw notOfItsKind(entry);
      push(this.byPosition, `${entry.kind}:${entry.index}`, entry);
      push(this.byHash, entry.requestHash, entry);
    }
    this.messagesByDigest = new Map(cassette.messages.map(({ digest, message }) => [digest, message]));
  }

  /** The recorded model response at `model:index:hash`; undefined on a miss. Either way its position counts as asked for. */
  modelAnswer(index: number, hash: string): ModelResponse | undefined {
    this.asked.add(`model:${index}`);
    return this.models.get(formatCassetteKey({ kind: 'model', index, requestHash: hash }));
  }

  /** The recorded tool response at `kind:index:hash`; undefined on a miss. Either way its position counts as asked for. */
  toolAnswer(kind: string, index: number, hash: string): ToolResponse | undefined {
    this.asked.add(`${kind}:${index}`);
    return this.tools.get(formatCassetteKey({ kind, index, requestHash: hash }));
  }

  /** Classifies a miss. */
  classify(kind: string, index: number, hash: string): Miss {
    const atPosition = this.byPosition.get(`${kind}:${index}`) ?? [];
    const recordedHashes = atPosition.map((entry) => entry.requestHash);
    if (atPosition.length > 0) return { classification: 'changed', recordedHashes, nearest: atPosition[0] };
    const sameHash = (this.byHash.get(hash) ?? []).find((entry) => entry.kind === kind);
    if (sameHash !== undefined) return { classification: 'reordered', recordedHashes, nearest: sameHash };
    return { classification: 'new-call', recordedHashes, nearest: undefined };
  }

  /**
   * Entries at positions no request asked for, in step order: the replay's
   * dropped calls. An entry whose position was asked with another hash is
   * not among them; that request was a miss and is reported as one.
   */
  unasked(): CassetteEntry[] {
    return this.cassette.entries.filter((entry) => !this.asked.has(`${entry.kind}:${entry.index}`));
  }

  /** A recorded message by digest. */
  message(digest: string): Message | undefined {
    return this.messagesByDigest.get(digest);
  }
}

const notOfItsKind = (entry: CassetteEntry): ForkpointError =>
  new ForkpointError(
    'CASSETTE_INVALID',
    `entry ${entry.kind}#${entry.index} (step ${entry.step}) holds a response that is not a ${entry.kind === 'model' ? 'model response' : 'tool result { output, isError }'}`,
  );

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
