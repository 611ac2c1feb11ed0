import type { ReplayDivergence } from '../analysis/index.js';
import type { EngineDeps, EngineOptions } from '../driver/index.js';
import { ownerCheck, resolveEngineDeps } from '../driver/index.js';
import { ForkpointError, isForkpointError } from '../errors/index.js';
import type { JsonObject } from '../json/index.js';
import { assertJsonValue, isJsonObject } from '../json/index.js';
import { textOf } from '../conversation/index.js';
import { readRunView } from '../read/index.js';
import type { RunErrorRecord } from '../store/index.js';
import type { Finding } from '../vocabulary/index.js';
import type { AiSdkMiddleware } from './ai-sdk-middleware.js';
import { aiSdkMiddleware } from './ai-sdk-middleware.js';
import { loopIdentityOf } from './loop-identity.js';
import { SessionCore } from './session-core.js';
import type { SessionMode, SessionOptions } from './session-options.js';
import { SESSION_MODES } from './session-options.js';
import type { PartsContext } from './session-parts.js';
import { forkPrefixParts, recordParts, replayParts } from './session-parts.js';
import type { SessionResult } from './session-result.js';
import { replayDivergenceIn } from './session-result.js';
import type { AnthropicMiddleware, FetchFunction } from './session-wire.js';
import { anthropicMiddleware, sessionFetch } from './session-wire.js';
import type { ToolFunction, WrapToolOptions } from './wrapped-tools.js';
import { ToolRegistry, wrapTool } from './wrapped-tools.js';
import type { SessionParts } from './session-core.js';

/** How the loop ended, told to {@link Session.close}. */
export interface SessionEnding {
  /** What the loop concluded (a decision, an answer); default: the text of the last model answer. */
  readonly outcome?: JsonObject;
  /** What the loop threw, when it failed: the run ends `failed` with it. */
  readonly error?: unknown;
}

/**
 * One run of a loop forkpoint does not drive: wrap its model client and its
 * tools with the session, run the loop as it is, and close the session.
 * Every call is a step, keyed as a driven run's (`kind#index`, request hash),
 * and answered by the mode: live (`record`), from the recording
 * (`replay:strict`, which has no way to reach the network or a tool), or a
 * recorded prefix, the fork's change and live after it (`fork:prefix`).
 */
export interface Session {
  readonly mode: SessionMode;
  /** The run's id: a recording's from the start; a replay's or fork's as it will be stored. */
  readonly runId: string;
  /** For `new Anthropic({ middleware: [session.anthropic()] })` (SDK 0.101 and later). */
  anthropic(): AnthropicMiddleware;
  /**
   * For any SDK that takes a `fetch`: `new OpenAI({ fetch: session.fetch(fetch) })`. `inner` is the real
   * `fetch` (`globalThis.fetch`, or the SDK's own), which a strict replay never calls.
   */
  fetch<F extends FetchFunction>(inner: F): F;
  /** For the AI SDK: `wrapLanguageModel({ model, middleware: session.aiSdk() })`. */
  aiSdk(): AiSdkMiddleware;
  /** Wraps one tool function; each call of the wrapped function is a step. */
  tool<I extends JsonObject, O>(
    name: string,
    fn: ToolFunction<I, O>,
    options?: WrapToolOptions,
  ): (input: I) => Promise<O>;
  /** Wraps the `execute` of each of an AI SDK tool set (those named in `readOnly` only read the world). */
  aiSdkTools<T extends Readonly<Record<string, AiSdkTool>>>(
    tools: T,
    options?: { readonly readOnly?: readonly string[] },
  ): T;
  /**
   * Ends the run: a recording's is final; a replay's is written now. Every later call is refused. A
   * `fork:prefix` that never got to apply writes nothing and throws why: the loop's divergence or mismatch
   * before step N, or `STEP_OUT_OF_RANGE` when it ended before it.
   */
  close(ending?: SessionEnding): Promise<SessionResult>;
}

/** An AI SDK tool, as far as a session needs it: its `execute`, if it has one. */
export interface AiSdkTool {
  readonly execute?: (input: never, options: never) => unknown;
}

/**
 * Opens a session over a loop forkpoint does not drive (see {@link Session}).
 * Checks its options, and for a replay or a fork reads the recording, before
 * the loop makes a call: a recording of another loop, or of a driven run, is
 * `AGENT_MISMATCH`; an override that does not fit its step is refused with
 * nothing written.
 *
 * @example
 * ```ts
 * const session = await createSession({ store, mode: 'record', agent: 'claims-loop', input: { claim } });
 * const client = new Anthropic({ middleware: [session.anthropic()] });
 * const ocr = session.tool('ocr_document', ocrDocument, { readOnly: true });
 * const decision = await myLoop(client, { ocr });
 * const run = await session.close({ outcome: decision });
 * ```
 */
export function createSession(options: SessionOptions & EngineOptions): Promise<Session> {
  return openSession(resolveEngineDeps(options), options);
}

/** Opens a session with the engine's dependencies (what `engine.session` does). */
export async function openSession(deps: EngineDeps, options: SessionOptions): Promise<Session> {
  const mode = (options as { readonly mode?: unknown }).mode;
  if (typeof mode !== 'string' || !(SESSION_MODES as readonly string[]).includes(mode))
    throw new ForkpointError(
      'USAGE',
      `a session's mode is one of ${SESSION_MODES.join(', ')}; got ${JSON.stringify(mode ?? null)}`,
    );
  const registry = new ToolRegistry();
  const context: PartsContext = { deps, loop: loopIdentityOf(options), tools: () => registry.specs() };
  const parts =
    options.mode === 'record'
      ? await recordParts(context, options)
      : options.mode === 'fork:prefix'
        ? await forkPrefixParts(context, options)
        : await replayParts(context, options);
  return sessionOver(deps, options.mode, parts, registry);
}

function sessionOver(deps: EngineDeps, mode: SessionMode, parts: SessionParts, registry: ToolRegistry): Session {
  const core = new SessionCore(parts);
  // Not a flag checked at each call: a strict session never builds a way to go live.
  const mayGoLive = mode !== 'replay:strict';
  let closing: Promise<SessionResult> | undefined;
  return {
    mode,
    get runId() {
      return parts.run.runId;
    },
    anthropic: () => anthropicMiddleware(core, mayGoLive),
    fetch: (inner) => sessionFetch(core, mayGoLive, inner),
    aiSdk: () => aiSdkMiddleware(core, mayGoLive),
    tool(name, fn, options = {}) {
      registry.register(name, fn, options);
      return wrapTool(core, name, fn, mayGoLive);
    },
    aiSdkTools(tools, options = {}) {
      const readOnly = new Set(options.readOnly ?? []);
      const wrapped: Record<string, AiSdkTool> = {};
      for (const [name, tool] of Object.entries(tools)) {
        const { execute } = tool;
        if (execute === undefined) {
          wrapped[name] = tool;
          continue;
        }
        registry.register(name, execute, { readOnly: readOnly.has(name) });
        // The SDK's second argument (call id, messages, abort signal) is not part of the call's key; each call
        // gets its own, so calls the SDK runs at once never see another's.
        wrapped[name] = {
          ...tool,
          execute: (input: never, second: never) =>
            wrapTool(core, name, (given: JsonObject) => execute(given as never, second), mayGoLive)(input),
        };
      }
      return wrapped as typeof tools;
    },
    close(ending = {}) {
      if (closing !== undefined)
        return Promise.reject(
          new ForkpointError('SESSION_MISUSE', `the session of run ${parts.run.runId} is closed already`),
        );
      // Checked before anything ends: a run closed with an outcome it cannot store would stay running forever.
      const problem = outcomeProblem(ending.outcome);
      if (problem !== undefined) return Promise.reject(problem);
      closing = closeSession(deps, mode, parts, core, ending);
      return closing;
    },
  };
}

async function closeSession(
  deps: EngineDeps,
  mode: SessionMode,
  parts: SessionParts,
  core: SessionCore,
  ending: SessionEnding,
): Promise<SessionResult> {
  core.close();
  const { run } = parts;
  if (!run.hasStarted) {
    run.abandon();
    // A fork whose loop left the recorded prefix, or made another call at step N, did reach it: say why it
    // did not apply (the divergence, the mismatch), not that the loop ended early.
    if (core.stop !== undefined) throw core.stop.error;
    throw new ForkpointError(
      'STEP_OUT_OF_RANGE',
      `the loop ended before step ${run.firstStep}, where the fork changes its call: nothing was written. Fork at a step the loop reaches`,
    );
  }
  const stop = core.stop;
  const failure = stop?.error ?? (ending.error === undefined ? undefined : errorOf(ending.error));
  const diverged = stop !== undefined && replayDivergenceIn(stop.error) !== undefined;
  const error: RunErrorRecord | null =
    failure === undefined
      ? null
      : { code: failure.code, message: failure.message, step: stop?.step ?? core.lastStep + 1 };
  const replaying = parts.world.replaying;
  // Every miss, and the recorded calls the loop never made, unless the session stopped (the calls after a
  // stop were never reached: they are not dropped calls), as a driven replay reports them.
  const findings: Finding[] =
    mode === 'replay:strict' || mode === 'replay:fidelity'
      ? [...(replaying?.divergences() ?? []), ...(stop === undefined ? (replaying?.droppedCalls() ?? []) : [])]
      : [];
  const stored = await run.finish({
    status: diverged ? 'diverged' : failure === undefined ? 'completed' : 'failed',
    outcome: failure === undefined ? (ending.outcome ?? outcomeOf(core)) : null,
    error,
    findings,
    finishedAt: deps.clock().toISOString(),
  });
  const view = await readRunView(deps.store, stored.runId, ownerCheck(deps), deps.prices);
  const divergence: ReplayDivergence | null = stop === undefined ? null : (replayDivergenceIn(stop.error) ?? null);
  return { ...view, divergence } as SessionResult;
}

function outcomeProblem(outcome: unknown): ForkpointError | undefined {
  const still = 'the session is still open: close it again with a JSON object (or no outcome)';
  try {
    if (outcome !== undefined) assertJsonValue(outcome, 'the outcome', 'SESSION_MISUSE');
  } catch (error) {
    if (!isForkpointError(error)) throw error;
    return new ForkpointError('SESSION_MISUSE', `${error.message}; ${still}`, { cause: error });
  }
  if (outcome === undefined || isJsonObject(outcome)) return undefined;
  return new ForkpointError('SESSION_MISUSE', `an outcome is a JSON object; ${still}`);
}

// What the loop threw, as a run's error: its own code when it is forkpoint's, the loop's fault otherwise.
function errorOf(error: unknown): ForkpointError {
  if (isForkpointError(error)) return error;
  return new ForkpointError('AGENT_CODE_FAILED', error instanceof Error ? error.message : String(error), {
    cause: error,
  });
}

function outcomeOf(core: SessionCore): JsonObject | null {
  const last = core.last;
  if (last?.kind !== 'model' || !('content' in last.response)) return null;
  return { answer: textOf(last.response.content) };
}
