import type { SnapshotFrom } from 'xstate';
import type { AgentBuild } from '../agent/index.js';
import type { RequestHasher } from '../cassette/index.js';
import type { ApprovalAnswer, ApprovalQuestion, ToolRequest, ToolUsePart } from '../conversation/index.js';
import { approvalQuestionOf, approvalRequestOf, approvalResponseOf } from '../conversation/index.js';
import { ForkpointError, isForkpointError } from '../errors/index.js';
import type { AgentEvent, AgentMachine, ApprovedCall, Awaiting, RunFailure } from '../machine/index.js';
import { awaitingOf, nextSnapshot } from '../machine/index.js';
import type { CallPosition, Transport } from '../transports/index.js';
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
  /**
   * True when the run stopped at rest, waiting for a person's approval that
   * nobody could give here (see `Transport.approval`): its last checkpoint
   * awaits it, and `forkpoint approve` continues it.
   */
  readonly waitingForApproval: boolean;
}

/**
 * The driver: asks the machine what it awaits, hashes the request, asks the
 * transport, sends the answer in as an event, and hands the step to `onStep`,
 * until the machine reaches a final state, or waits for a person's approval
 * that nobody here can give. All I/O happens here; the machine stays pure. A
 * `ForkpointError` from the transport (a provider refusing a request, a
 * replay diverging) stops the drive and is returned, not thrown.
 */
export async function driveRun(options: DriveOptions): Promise<DriveResult> {
  const { machine, transport } = options;
  let snapshot = options.snapshot;
  for (;;) {
    const awaiting = awaitingOf(snapshot);
    if (snapshot.status !== 'active' || awaiting === undefined)
      return { snapshot, stoppedBy: null, waitingForApproval: false };
    const step = snapshot.context.step + 1;
    let completed: CompletedStep | undefined;
    try {
      completed = await observe(options, snapshot, awaiting, step);
    } catch (error) {
      if (!isForkpointError(error) || error.code === 'INTERNAL') throw error;
      return {
        snapshot,
        stoppedBy: { failure: { code: error.code, message: error.message, step }, error },
        waitingForApproval: false,
      };
    }
    if (completed === undefined) return { snapshot, stoppedBy: null, waitingForApproval: true };
    await options.onStep(completed);
    snapshot = completed.snapshot;
  }

  // One observation: the request for what the machine awaits, its answer, and the state after it; undefined
  // when the machine awaits an approval nobody here can give.
  async function observe(
    { build, hasher }: DriveOptions,
    at: AgentSnapshot,
    awaiting: Awaiting,
    step: number,
  ): Promise<CompletedStep | undefined> {
    const context = at.context;
    if (awaiting.type === 'model') {
      const request = modelRequestOf(build, context);
      const hashed = hasher.hashModelRequest(request);
      const answer = await transport.model({ step, kind: 'model', index: awaiting.index, ...hashed, request });
      const event: AgentEvent = { type: 'model.responded', response: answer.response };
      return {
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
        snapshot: advance(machine, at, event),
      };
    }
    const { call } = awaiting;
    const callRequest: ToolRequest = { tool: call.name, input: call.input };
    const callHashed = hasher.hashToolRequest(callRequest);
    if (awaiting.type === 'approval') {
      const request = approvalRequestOf(call, callHashed.requestHash);
      const hashed = hasher.hashToolRequest(request);
      const question = approvalQuestionOf(request);
      if (question === undefined) throw new ForkpointError('INTERNAL', 'an approval request holds no question');
      const position = { step, kind: awaiting.kind, index: awaiting.index, ...hashed };
      const answered = await transport.approval?.({ ...position, request, question });
      if (answered === undefined) return undefined;
      requireAnswerFor(answered.response, question, position);
      const event: AgentEvent = { type: 'approval.answered', call, answer: answered.response };
      return {
        type: 'tool',
        ...position,
        request,
        response: approvalResponseOf(answered.response),
        provenance: answered.provenance,
        snapshot: advance(machine, at, event),
      };
    }
    requireApproved(context.approved, call, callHashed.requestHash, step);
    const position = { step, kind: awaiting.kind, index: awaiting.index, ...callHashed };
    const answer = await transport.tool({ ...position, request: callRequest });
    const event: AgentEvent = { type: 'tool.returned', call, response: answer.response };
    return { type: 'tool', ...position, request: callRequest, ...answer, snapshot: advance(machine, at, event) };
  }
}

// An answer applies to the call it names and no other: one given for another call is never applied.
function requireAnswerFor(answer: ApprovalAnswer, question: ApprovalQuestion, at: CallPosition): void {
  if (answer.requestHash === question.requestHash) return;
  throw new ForkpointError(
    'CALL_NOT_APPROVED',
    `${at.kind}#${at.index} (step ${at.step}) asks about ${question.tool} with request hash ${question.requestHash}; the answer given is about request ${answer.requestHash}, so it applies to nothing here and the call is not made`,
  );
}

// The approved call is made only if it is still the call that was approved: its request must hash as it did.
function requireApproved(
  approved: ApprovedCall | null | undefined,
  call: ToolUsePart,
  requestHash: string,
  step: number,
): void {
  if (approved === undefined || approved === null || approved.toolUseId !== call.id) return;
  if (approved.requestHash === requestHash) return;
  throw new ForkpointError(
    'CALL_NOT_APPROVED',
    `${call.name} (step ${step}) was not called: its request hashes to ${requestHash}, and the approval given was for request ${approved.requestHash}. An approval applies to the exact call it was given for`,
  );
}

function advance(machine: AgentMachine, snapshot: AgentSnapshot, event: AgentEvent): AgentSnapshot {
  const next = nextSnapshot(machine, snapshot, event);
  if (next.context.step !== snapshot.context.step + 1) {
    throw new ForkpointError('INTERNAL', `the machine did not accept ${event.type} in state ${snapshot.value}`);
  }
  return next;
}
