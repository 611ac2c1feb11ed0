import type { DroppedCallFinding, MissFinding } from '../vocabulary/index.js';
import { ReplayDivergence, describeDivergence } from '../analysis/index.js';
import { divergenceOfMiss } from '../analysis/index.js';
import type { CassetteIndex } from '../cassette/index.js';
import type { ApprovalAnswer, ModelRequest, ToolResponse } from '../conversation/index.js';
import { isApprovalAnswer } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { Answered, ApprovalCall, CallPosition, ModelCall, ToolCall, Transport } from './transport.js';

interface ReplayingBase {
  readonly index: CassetteIndex;
  /** The replay run's id, carried by its divergences. */
  readonly runId: string;
  /**
   * How a request is looked up. Default: the hash the driver computed in the
   * canonical form. A structural replay keys requests by their shape instead.
   */
  readonly keys?: RequestKeys;
}

/** The key of a request in a cassette of another canonical form: its hash, and the text a miss is diffed on. */
export interface RequestKeys {
  model(call: ModelCall): RequestKey;
  /** A tool call's key; an approval's too, whose request is its question. */
  tool(call: ToolCall): RequestKey;
}

/** A request's hash and the canonical text it was computed over (or a summary of it). */
export interface RequestKey {
  readonly requestHash: string;
  readonly canonical: string;
}

/** Strict replay: every answer comes from the cassette; a miss raises. There is no live transport to fall to. */
export interface StrictReplayOptions extends ReplayingBase {
  readonly mode: 'strict';
}

/** Fidelity replay: a miss is a finding. It stops the run, or, when asked by name, goes live from there on. */
export type FidelityReplayOptions = ReplayingBase & { readonly mode: 'fidelity' } & (
    { readonly onMiss: 'stop' } | { readonly onMiss: 'live'; readonly live: Transport }
  );

/** A transport serving a cassette, and what it found. */
export interface ReplayingTransport extends Transport {
  /** Every miss met so far, in order. */
  divergences(): readonly MissFinding[];
  /**
   * Recorded positions the replay never asked for: `dropped-call` findings,
   * not misses. A position asked with another hash is not one: it is among
   * {@link divergences}, so each fact is reported once.
   */
  droppedCalls(): readonly DroppedCallFinding[];
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
  const found: MissFinding[] = [];
  let live: Transport | undefined;

  // In strict mode, and in fidelity mode stopping at a miss, the miss ends the replay; otherwise it goes live.
  const wentLive = (divergence: MissFinding): Transport => {
    if (options.mode === 'strict' || options.onMiss === 'stop') throw new ReplayDivergence(runId, divergence);
    return options.live;
  };

  async function serve<T, Live extends Answered<T> | undefined = Answered<T>>(
    asked: ModelCall | ToolCall,
    key: RequestKey | undefined,
    modelRequest: ModelRequest | undefined,
    recorded: (position: CallPosition) => T | undefined,
    ask: (world: Transport) => Promise<Live>,
  ): Promise<Answered<T> | Live> {
    const call = key === undefined ? asked : { ...asked, ...key };
    const response = recorded(call);
    if (response === undefined) {
      // Whole messages are compared only when the cassette holds them, in the same canonical form.
      const divergence = divergenceOfMiss(
        index,
        modelRequest === undefined || key !== undefined ? call : { ...call, modelRequest },
      );
      found.push(divergence);
      // Once live, later misses are only reported: the run already left the recording.
      live ??= wentLive(divergence);
    } else if (live === undefined) {
      // Frozen by the index: the machine may share it, since nothing can change it.
      return { response, provenance: 'recorded' };
    }
    return ask(live);
  }

  return {
    model: (call: ModelCall) =>
      serve(
        call,
        options.keys?.model(call),
        call.request,
        (at) => index.modelAnswer(at.index, at.requestHash),
        (world) => world.model(call),
      ),
    tool: (call: ToolCall) =>
      serve(
        call,
        options.keys?.tool(call),
        undefined,
        (at) => index.toolAnswer(at.kind, at.index, at.requestHash),
        (world) => world.tool(call),
      ),
    // A recorded answer is served as recorded, bound to the call it was given for by the question's hash: a
    // person is never asked again. Gone live after a miss, a new question goes to the live world, which has
    // nobody to answer it.
    approval: (call: ApprovalCall) =>
      serve<ApprovalAnswer, Answered<ApprovalAnswer> | undefined>(
        call,
        options.keys?.tool(call),
        undefined,
        (at) => {
          const answer = recordedApproval(runId, at, index.toolAnswer(at.kind, at.index, at.requestHash));
          // Keyed by another form (a structural replay's shapes), the entry matched the question's shape, not its
          // hash, and the answer holds a shaped hash: it is bound to the question it was found for.
          return answer === undefined || options.keys === undefined
            ? answer
            : { ...answer, requestHash: call.question.requestHash };
        },
        (world) => world.approval?.(call) ?? Promise.resolve(undefined),
      ),
    // A copy: what a caller was told stays as it was told, while the replay goes on.
    divergences: () => [...found],
    droppedCalls: () =>
      index.unasked().map((entry): DroppedCallFinding => {
        const partial = {
          classification: 'dropped-call' as const,
          step: entry.step,
          kind: entry.kind,
          index: entry.index,
          actualHash: null,
          recordedHashes: [entry.requestHash],
          changed: [],
          diff: [],
        };
        return { ...partial, message: describeDivergence(partial) };
      }),
  };
}

// A recorded approval step holds the answer as its output; anything else was not written by forkpoint.
function recordedApproval(
  runId: string,
  at: CallPosition,
  response: ToolResponse | undefined,
): ApprovalAnswer | undefined {
  if (response === undefined) return undefined;
  if (isApprovalAnswer(response.output)) return response.output;
  throw new ForkpointError(
    'CASSETTE_INVALID',
    `the cassette replayed by run ${runId} holds no person's answer at ${at.kind}#${at.index} (step ${at.step}): it was not written by forkpoint`,
  );
}
