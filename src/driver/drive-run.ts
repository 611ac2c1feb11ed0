import type { SnapshotFrom } from 'xstate';
import type { AgentBuild } from '../agent/index.js';
import type { RequestHasher } from '../cassette/index.js';
import type { ToolRequest } from '../conversation/index.js';
import { ForkpointError, isForkpointError } from '../errors/index.js';
import type { AgentEvent, AgentMachine, RunFailure } from '../machine/index.js';
import { awaitingOf, nextSnapshot } from '../machine/index.js';
import type { Transport } from '../transports/index.js';
import { modelRequestOf } from './model-request-of.js';
import type { CompletedStepOf } from './completed-step.js';

/** A snapshot of an agent machine. */
export type AgentSnapshot = SnapshotFrom<AgentMachine>;

/** One completed step of a driven run: its snapshot is the machine's. */
export type CompletedStep = CompletedStepOf<AgentSnapshot>;

/** What {@link driveRun} needs. */
export interface DriveOptions {
  readonly build: AgentBuild;
  readonly machine: AgentMachine;
  readonly snapshot: AgentSnapshot;
  readonly transport: Transport;
  readonly hasher: RequestHasher;
  /** Called after every step, before the next request: the place to persist it (awaited). */
  readonly onStep: (step: CompletedStep) => Promise<void>;
}

/** Where a drive stopped: the last snapshot, and the error that stopped it early, if any. */
export interface DriveResult {
  readonly snapshot: AgentSnapshot;
  readonly stoppedBy: { readonly failure: RunFailure; readonly error: ForkpointError } | null;
}

/**
 * The driver: asks the machine what it awaits, hashes the request, asks the
 * transport, sends the answer in as an event, and hands the step to `onStep`,
 * until the machine reaches a final state. All I/O happens here; the machine
 * stays pure. A `ForkpointError` from the transport (a provider refusing a
 * request, a replay diverging) stops the drive and is returned, not thrown.
 */
export async function driveRun(options: DriveOptions): Promise<DriveResult> {
  const { build, machine, transport, hasher } = options;
  let snapshot = options.snapshot;
  for (;;) {
    const awaiting = awaitingOf(snapshot);
    if (snapshot.status !== 'active' || awaiting === undefined) return { snapshot, stoppedBy: null };
    const context = snapshot.context;
    const step = context.step + 1;
    let completed: CompletedStep;
    try {
      if (!('call' in awaiting)) {
        const request = modelRequestOf(build, context);
        const hashed = hasher.hashModelRequest(request);
        const answer = await transport.model({ step, kind: 'model', index: awaiting.index, ...hashed, request });
        const event: AgentEvent = { type: 'model.responded', response: answer.response };
        completed = {
          type: 'model',
          step,
          kind: 'model',
          index: awaiting.index,
          requestHash: hashed.requestHash,
          canonical: hashed.canonical,
          messageDigests: hashed.messageDigests,
          headText: hashed.headText,
          request,
          ...answer,
          snapshot: advance(machine, snapshot, event),
        };
      } else {
        const request: ToolRequest = { tool: awaiting.call.name, input: awaiting.call.input };
        const hashed = hasher.hashToolRequest(request);
        const answer = await transport.tool({ step, kind: awaiting.kind, index: awaiting.index, ...hashed, request });
        const event: AgentEvent = { type: 'tool.returned', call: awaiting.call, response: answer.response };
        completed = {
          type: 'tool',
          step,
          kind: awaiting.kind,
          index: awaiting.index,
          requestHash: hashed.requestHash,
          canonical: hashed.canonical,
          request,
          ...answer,
          snapshot: advance(machine, snapshot, event),
        };
      }
    } catch (error) {
      if (!isForkpointError(error) || error.code === 'INTERNAL') throw error;
      return { snapshot, stoppedBy: { failure: { code: error.code, message: error.message, step }, error } };
    }
    await options.onStep(completed);
    snapshot = completed.snapshot;
  }
}

function advance(machine: AgentMachine, snapshot: AgentSnapshot, event: AgentEvent): AgentSnapshot {
  const next = nextSnapshot(machine, snapshot, event);
  if (next.context.step !== snapshot.context.step + 1) {
    throw new ForkpointError('INTERNAL', `the machine did not accept ${event.type} in state ${snapshot.value}`);
  }
  return next;
}
