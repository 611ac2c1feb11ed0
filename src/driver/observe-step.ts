import type { ApprovalAnswer, ApprovalQuestion, ToolRequest, ToolUsePart } from '../conversation/index.js';
import { approvalRequestOf, approvalResponseOf } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type {
  AgentEvent,
  AgentMachine,
  ApprovedCall,
  AwaitingApproval,
  AwaitingModel,
  AwaitingTool,
} from '../machine/index.js';
import { nextSnapshot } from '../machine/index.js';
import type { CallPosition } from '../transports/index.js';
import type { AgentSnapshot, CompletedStep, DriveOptions } from './drive-types.js';
import { modelRequestOf } from './model-request-of.js';

/** Where one step stands: the snapshot before it, and its number. */
interface StepAt {
  readonly snapshot: AgentSnapshot;
  readonly step: number;
}

/** The model call the machine awaits: its request, hashed, the transport's answer and the state after it. */
export async function observeModel(options: DriveOptions, at: StepAt, awaiting: AwaitingModel): Promise<CompletedStep> {
  const { build, hasher, transport, machine } = options;
  const request = modelRequestOf(build, at.snapshot.context);
  const hashed = hasher.hashModelRequest(request);
  const answer = await transport.model({ step: at.step, kind: 'model', index: awaiting.index, ...hashed, request });
  return {
    type: 'model',
    step: at.step,
    kind: 'model',
    index: awaiting.index,
    requestHash: hashed.requestHash,
    canonical: hashed.canonical,
    messageDigests: hashed.messageDigests,
    headText: hashed.headText,
    request,
    ...answer,
    snapshot: advance(machine, at.snapshot, { type: 'model.responded', response: answer.response }),
  };
}

/**
 * A person's answer to the approval the machine awaits: asked with a question
 * bound to the call's request hash, so its step's hash (and cassette key) is
 * too. Undefined when nobody here can answer: the run waits at rest.
 */
export async function askApproval(
  options: DriveOptions,
  at: StepAt,
  awaiting: AwaitingApproval,
): Promise<CompletedStep | undefined> {
  const { hasher, transport, machine } = options;
  const { call } = awaiting;
  const request = approvalRequestOf(call, hasher.hashToolRequest(toolRequestOf(call)).requestHash);
  const position = { step: at.step, kind: awaiting.kind, index: awaiting.index, ...hasher.hashToolRequest(request) };
  const answered = await transport.approval?.({ ...position, request, question: request.input });
  if (answered === undefined) return undefined;
  requireAnswerFor(answered.response, request.input, position);
  return {
    type: 'tool',
    ...position,
    request,
    response: approvalResponseOf(answered.response),
    provenance: answered.provenance,
    snapshot: advance(machine, at.snapshot, { type: 'approval.answered', call, answer: answered.response }),
  };
}

/** The tool call the machine awaits, made only if a call approved is still the call that was approved. */
export async function callTool(options: DriveOptions, at: StepAt, awaiting: AwaitingTool): Promise<CompletedStep> {
  const { hasher, transport, machine } = options;
  const { call } = awaiting;
  const request = toolRequestOf(call);
  const position = { step: at.step, kind: awaiting.kind, index: awaiting.index, ...hasher.hashToolRequest(request) };
  requireApproved(at.snapshot.context.approved, call, position);
  const answer = await transport.tool({ ...position, request });
  const event: AgentEvent = { type: 'tool.returned', call, response: answer.response };
  return { type: 'tool', ...position, request, ...answer, snapshot: advance(machine, at.snapshot, event) };
}

const toolRequestOf = (call: ToolUsePart): ToolRequest => ({ tool: call.name, input: call.input });

// An answer applies to the call it names and no other: one given for another call is never applied.
function requireAnswerFor(answer: ApprovalAnswer, question: ApprovalQuestion, at: CallPosition): void {
  if (answer.requestHash === question.requestHash) return;
  throw new ForkpointError(
    'CALL_NOT_APPROVED',
    `${at.kind}#${at.index} (step ${at.step}) asks about ${question.tool} with request hash ${question.requestHash}; the answer given is about request ${answer.requestHash}, so it applies to nothing here and the call is not made`,
  );
}

// The approved call is made only if it is still the call that was approved: its request must hash as it did.
function requireApproved(approved: ApprovedCall | null | undefined, call: ToolUsePart, at: CallPosition): void {
  if (approved === undefined || approved === null || approved.toolUseId !== call.id) return;
  if (approved.requestHash === at.requestHash) return;
  throw new ForkpointError(
    'CALL_NOT_APPROVED',
    `${call.name} (step ${at.step}) was not called: its request hashes to ${at.requestHash}, and the approval given was for request ${approved.requestHash}. An approval applies to the exact call it was given for`,
  );
}

function advance(machine: AgentMachine, snapshot: AgentSnapshot, event: AgentEvent): AgentSnapshot {
  const next = nextSnapshot(machine, snapshot, event);
  if (next.context.step !== snapshot.context.step + 1) {
    throw new ForkpointError('INTERNAL', `the machine did not accept ${event.type} in state ${snapshot.value}`);
  }
  return next;
}
