import type { ModelRequest, ModelResponse, ToolRequest, ToolResponse, WireAnswer } from '../conversation/index.js';
import { ForkpointError, isForkpointError } from '../errors/index.js';
import type { JsonObject } from '../json/index.js';
import type { Answered } from '../transports/index.js';
import type { Provenance } from '../vocabulary/index.js';
import { CallPositions } from './call-positions.js';
import type { Position } from './call-positions.js';
import type { ConversationLog } from './conversation-log.js';
import { ProviderAttemptFailed } from './provider-attempt.js';
import type { SessionRun } from './session-run.js';
import type { SessionWorld } from './session-transport.js';
import { StepOrder } from './step-order.js';
import type { WrappedState } from './wrapped-state.js';
import type { LiveModelCall, LiveToolCall } from './wrapped-live-transport.js';

/** A model call a wrapped SDK makes, in canonical form, with the way to make it live (none in a strict replay). */
export interface ModelAsk {
  readonly request: ModelRequest;
  readonly streamed: boolean;
  readonly format: WireAnswer['format'];
  readonly live: (() => Promise<ModelResponse>) | undefined;
}

/** A wrapped tool's call, with the way to make it for real (none in a strict replay). */
export interface ToolAsk {
  readonly tool: string;
  readonly input: JsonObject;
  readonly live: (() => Promise<ToolResponse>) | undefined;
}

/** The parts a session's core works with, made by `createSession` for its mode. */
export interface SessionParts {
  readonly world: SessionWorld;
  readonly run: SessionRun;
  readonly state: WrappedState;
  readonly log: ConversationLog;
  /** A `fork:prefix`'s step N: the call the loop must make there, as the recording made it. */
  readonly forkStep?: { readonly step: number; readonly kind: string; readonly index: number };
}

/** Why a session stopped taking calls. */
export interface SessionStop {
  readonly error: ForkpointError;
  readonly step: number;
}

/**
 * The heart of a session: every call of the wrapped loop, whichever SDK made
 * it, is positioned (step, `kind#index`), hashed as a driven run's request,
 * answered by the mode's transports, applied to the loop's state and
 * committed, in step order. Model calls go one at a time (a loop's model calls
 * follow each other; a retry must find the position its failed attempt left);
 * tool calls may overlap, and a tool call waits for the model answer before
 * it. The first error that is not the provider refusing one attempt stops the
 * session: every later call is refused, so nothing goes past a divergence.
 */
export class SessionCore {
  private readonly positions = new CallPositions();
  private readonly order = new StepOrder();
  private modelTurn: Promise<unknown> = Promise.resolve();
  private stopped: SessionStop | undefined;
  private closed = false;
  private lastAnswer: { readonly kind: string; readonly response: ModelResponse | ToolResponse } | undefined;

  constructor(private readonly parts: SessionParts) {}

  /** Why the session stopped, if it did. */
  get stop(): SessionStop | undefined {
    return this.stopped;
  }

  /** The last step a call took. */
  get lastStep(): number {
    return this.positions.lastTaken;
  }

  /** The last answer the loop was given, and its kind. */
  get last(): { readonly kind: string; readonly response: ModelResponse | ToolResponse } | undefined {
    return this.lastAnswer;
  }

  /** Answers one model call. */
  model(ask: ModelAsk): Promise<Answered<ModelResponse>> {
    this.assertOpen();
    const turn = this.modelTurn.then(() => this.modelCall(ask));
    this.modelTurn = turn.catch(() => undefined);
    return turn;
  }

  /** Answers one tool call. */
  async tool(ask: ToolAsk): Promise<Answered<ToolResponse>> {
    this.assertOpen();
    // The model answer that asked for the call is in place first (the AI SDK runs tools as a stream goes).
    await this.modelTurn;
    this.assertOpen();
    const position = this.positions.takeTool(ask.tool, ask.input);
    const where = `${ask.tool}#${position.index} (step ${position.step})`;
    const request: ToolRequest = { tool: ask.tool, input: ask.input };
    const hashed = this.parts.log.hasher.hashToolRequest(request);
    this.checkForkStep(ask.tool, position, where);
    const call: LiveToolCall = {
      step: position.step,
      kind: ask.tool,
      index: position.index,
      ...hashed,
      request,
      ...(ask.live === undefined ? {} : { live: ask.live }),
    };
    const answered = await this.answer(() => this.parts.world.transport.tool(call), position.step);
    await this.inOrder(position.step, async () => {
      const snapshot = this.parts.state.tool(
        position.step,
        ask.tool,
        position.index,
        position.answers,
        answered.response,
      );
      if (position.step < this.parts.run.firstStep) return;
      await this.parts.run.start(snapshot);
      await this.parts.run.commit({
        type: 'tool',
        step: position.step,
        kind: ask.tool,
        index: position.index,
        ...hashed,
        provenance: answered.provenance,
        ...(answered.sideEffect === true ? { sideEffect: true as const } : {}),
        request,
        response: answered.response,
        snapshot,
      });
    });
    this.lastAnswer = { kind: ask.tool, response: answered.response };
    return answered;
  }

  /** Refuses every later call; gives the steps still waiting their turn back. */
  close(): void {
    this.closed = true;
    this.order.release();
  }

  private async modelCall(ask: ModelAsk): Promise<Answered<ModelResponse>> {
    this.assertOpen();
    const at = this.positions.peekModel();
    const where = `model#${at.index} (step ${at.step})`;
    const logged = this.checked(() => this.parts.log.take(ask.request, where), at.step);
    const position = this.positions.takeModel();
    const call: LiveModelCall = {
      step: position.step,
      kind: 'model',
      index: position.index,
      requestHash: logged.hashed.requestHash,
      canonical: logged.hashed.canonical,
      request: logged.request,
      ...(ask.live === undefined ? {} : { live: ask.live }),
    };
    const answered = await this.answer(() => this.parts.world.transport.model(call), position.step, position);
    this.checked(() => {
      checkWire(answered.response, answered.provenance, ask, where);
    }, position.step);
    this.positions.listAnswer(answered.response);
    await this.inOrder(position.step, async () => {
      const snapshot = this.parts.state.model(position.step, position.index, logged.request, answered.response);
      if (position.step < this.parts.run.firstStep) return;
      await this.parts.run.start(snapshot);
      await this.parts.run.commit({
        type: 'model',
        step: position.step,
        kind: 'model',
        index: position.index,
        requestHash: logged.hashed.requestHash,
        canonical: logged.hashed.canonical,
        provenance: answered.provenance,
        request: logged.request,
        response: answered.response,
        messageDigests: logged.hashed.messageDigests,
        headText: logged.hashed.headText,
        snapshot,
      });
    });
    this.lastAnswer = { kind: 'model', response: answered.response };
    return answered;
  }

  // Runs one part of a call; an error stops the session, except a provider refusing one attempt, whose
  // position is given back for the SDK's retry.
  private async answer<T>(work: () => Promise<T>, step: number, position?: Position): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ProviderAttemptFailed && position !== undefined && this.positions.releaseModel(position))
        throw error;
      throw this.halt(error, step);
    }
  }

  // A check made in the call itself: what it refuses stops the session, as an answer's error does.
  private checked<T>(check: () => T, step: number): T {
    try {
      return check();
    } catch (error) {
      throw this.halt(error, step);
    }
  }

  private async inOrder(step: number, commit: () => Promise<void>): Promise<void> {
    await this.order.turn(step);
    try {
      this.assertOpen();
      await commit();
    } catch (error) {
      throw this.halt(error, step);
    } finally {
      this.order.done(step);
    }
  }

  private checkForkStep(tool: string, position: Position, where: string): void {
    const fork = this.parts.forkStep;
    if (fork === undefined || position.step !== fork.step) return;
    if (fork.kind === tool && fork.index === position.index) return;
    throw this.halt(
      new ForkpointError(
        'OVERRIDE_MISMATCH',
        `the loop's step ${fork.step} is ${where}, but the recording's is ${fork.kind}#${fork.index}: the fork's override cannot apply there`,
      ),
      position.step,
    );
  }

  private halt(error: unknown, step: number): Error {
    const stopped =
      isForkpointError(error) || error instanceof ProviderAttemptFailed
        ? error
        : new ForkpointError('INTERNAL', error instanceof Error ? error.message : String(error), { cause: error });
    if (this.stopped === undefined && isForkpointError(stopped)) this.stopped = { error: stopped, step };
    this.order.release();
    return stopped;
  }

  private assertOpen(): void {
    if (this.closed)
      throw new ForkpointError(
        'SESSION_MISUSE',
        'a call went through a closed session; open a new session for another run of the loop',
      );
    if (this.stopped !== undefined) {
      const { error, step } = this.stopped;
      throw new ForkpointError(
        'SESSION_MISUSE',
        `the session stopped at step ${step} (${error.code}: ${error.message}); no call goes through it any more: close it and look at the result`,
        { cause: error },
      );
    }
  }
}

// A recorded answer must come back as the loop now asks for it: a stream for a streamed call, whole otherwise.
function checkWire(response: ModelResponse, provenance: Provenance, ask: ModelAsk, where: string): void {
  const { wire } = response;
  // Only a recording answers a model call with a stored wire (a fork overrides tool steps alone).
  if (provenance !== 'recorded') return;
  if (wire === undefined || wire.format !== ask.format) {
    throw new ForkpointError(
      'AGENT_MISMATCH',
      `${where} was recorded ${wire === undefined ? 'by a run forkpoint drove' : `through ${wire.format}`}, and this loop asks through ${ask.format}: a wrapped session replays what the same SDK recorded`,
    );
  }
  if (wire.streamed !== ask.streamed) {
    throw new ForkpointError(
      'AGENT_MISMATCH',
      `${where} was recorded ${wire.streamed ? 'as a stream' : 'whole'}, and the loop now asks for it ${ask.streamed ? 'as a stream' : 'whole'}; record the run again with the loop as it is now`,
    );
  }
}
