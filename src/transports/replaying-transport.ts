import type { Divergence } from '../analysis/index.js';
import { ReplayDivergence, describeDivergence } from '../analysis/index.js';
import { divergenceOfMiss } from '../analysis/divergence-of-miss.js';
import type { CassetteIndex } from '../cassette/index.js';
import type { ModelRequest, ModelResponse, ToolResponse } from '../conversation/index.js';
import type { Answered, ModelCall, ToolCall, Transport } from './transport.js';

interface ReplayingBase {
  readonly index: CassetteIndex;
  /** The replay run's id, carried by its divergences. */
  readonly runId: string;
}

/** Strict replay: every answer comes from the cassette; a miss raises. There is no live transport to fall to. */
export interface StrictReplayOptions extends ReplayingBase {
  readonly mode: 'strict';
}

/** Fidelity replay: a miss is a finding. It stops the run, or, when asked by name, goes live from there on. */
export type FidelityReplayOptions = ReplayingBase & { readonly mode: 'fidelity' } & (
    | { readonly onMiss: 'stop' }
    | { readonly onMiss: 'live'; readonly live: Transport }
  );

/** A transport serving a cassette, and what it found. */
export interface ReplayingTransport extends Transport {
  /** Every divergence met so far, in order. */
  divergences(): readonly Divergence[];
  /** Recorded entries the replay never asked for: `dropped-call` findings, not misses. */
  droppedCalls(): readonly Divergence[];
}

/**
 * Serves recorded responses at `kind:index:hash`. A hit is marked `recorded`.
 * In strict mode a miss raises {@link ReplayDivergence} and nothing else can
 * happen: the strict transport holds no live transport at all. In fidelity
 * mode with `onMiss: 'live'`, the missed step and every later one are asked
 * of the live world and marked `live`, and every divergence met is reported.
 */
export function replayingTransport(options: StrictReplayOptions | FidelityReplayOptions): ReplayingTransport {
  const { index, runId } = options;
  const found: Divergence[] = [];
  let live: Transport | undefined;

  async function serve<T>(call: ModelCall | ToolCall, modelRequest: ModelRequest | undefined, ask: (world: Transport) => Promise<Answered<T>>): Promise<Answered<T>> {
    const entry = index.answer(call.kind, call.index, call.hash);
    if (entry === undefined) {
      const divergence = divergenceOfMiss(index, modelRequest === undefined ? call : { ...call, modelRequest });
      found.push(divergence);
      // Once live, later misses are only reported: the run already left the recording.
      if (live === undefined) {
        if (options.mode === 'strict' || options.onMiss === 'stop') throw new ReplayDivergence(runId, divergence);
        live = options.live;
      }
    }
    if (live !== undefined) return ask(live);
    // A copy, so that the machine's state never shares objects with the cassette.
    return { response: structuredClone(entry!.response) as unknown as T, provenance: 'recorded' };
  }

  return {
    model: (call: ModelCall) => serve<ModelResponse>(call, call.request, (world) => world.model(call)),
    tool: (call: ToolCall) => serve<ToolResponse>(call, undefined, (world) => world.tool(call)),
    divergences: () => found,
    droppedCalls: () =>
      index.unconsumed().map((entry) => {
        const partial = {
          classification: 'dropped-call' as const,
          step: entry.step,
          kind: entry.kind,
          index: entry.index,
          actualHash: null,
          recordedHashes: [entry.hash],
          changed: [],
          diff: [],
        };
        return { ...partial, message: describeDivergence(partial) };
      }),
  };
}
