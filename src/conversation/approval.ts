import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import type { ToolUsePart } from './message.js';
import type { ToolRequest, ToolResponse } from './tool-call.js';

/**
 * The kind of an approval step: a person's answer to "may the run make this
 * call?". It is reserved: no tool may take the name.
 */
export const APPROVAL_KIND = 'approval';

/**
 * A person's answer to an approval, bound to the exact call it answers by
 * that call's request hash. A type, not an interface, so it is stored as the
 * plain JSON it is.
 */
export type ApprovalAnswer = {
  /** True when the person let the call be made; false when they rejected it. */
  readonly approved: boolean;
  /** Who answered (a user name, an email). */
  readonly by: string;
  /** When they answered, ISO 8601. */
  readonly at: string;
  /** Why, in their words; `null` when they gave no reason. */
  readonly note: string | null;
  /** The request hash of the call approved or rejected: the answer applies to that call and no other. */
  readonly requestHash: string;
};

/**
 * What an approval step asks: the tool, the input the model gave it, and the
 * call's request hash. It is the step's request, so the approval's own
 * request hash (and cassette key) is bound to the call it is about.
 */
export type ApprovalQuestion = {
  readonly tool: string;
  readonly input: JsonObject;
  readonly requestHash: string;
};

/**
 * An approval step's request, in the shape every step's request has: the
 * question stands as the input of the reserved `approval` kind.
 */
export function approvalRequestOf(call: ToolUsePart, requestHash: string): ApprovalRequest {
  return { tool: APPROVAL_KIND, input: { tool: call.name, input: call.input, requestHash } };
}

/** An approval step's request: a tool request of the reserved kind whose input is the question. */
export type ApprovalRequest = ToolRequest & { readonly tool: typeof APPROVAL_KIND; readonly input: ApprovalQuestion };

/**
 * An approval step's response, in the shape every tool step's response has:
 * a rejection is an error result, so a reader that knows nothing of
 * approvals still sees the call did not happen.
 */
export function approvalResponseOf(answer: ApprovalAnswer): ToolResponse {
  return { output: answer, isError: !answer.approved };
}

/** The question an approval step's request holds, or `undefined` when it holds none. */
export function approvalQuestionOf(request: JsonValue | undefined): ApprovalQuestion | undefined {
  if (!isJsonObject(request) || request.tool !== APPROVAL_KIND) return undefined;
  const question = request.input;
  if (!isJsonObject(question)) return undefined;
  const { tool, input, requestHash } = question;
  if (typeof tool !== 'string' || !isJsonObject(input) || typeof requestHash !== 'string') return undefined;
  return { tool, input, requestHash };
}

/** The answer an approval step's response holds, or `undefined` when it holds none. */
export function approvalAnswerOf(response: JsonValue | undefined): ApprovalAnswer | undefined {
  const output = isJsonObject(response) ? response.output : undefined;
  return isApprovalAnswer(output) ? output : undefined;
}

/** True for an {@link ApprovalAnswer} read back from JSON. */
export function isApprovalAnswer(value: JsonValue | undefined): value is ApprovalAnswer {
  return (
    isJsonObject(value) &&
    typeof value.approved === 'boolean' &&
    typeof value.by === 'string' &&
    typeof value.at === 'string' &&
    (value.note === null || typeof value.note === 'string') &&
    typeof value.requestHash === 'string'
  );
}

/**
 * What the model sees when a call it asked for was rejected: the call did
 * not happen, who said no, and why. It stands as the call's tool result.
 */
export function rejectionContentOf(answer: ApprovalAnswer): JsonObject {
  return { rejected: true, by: answer.by, reason: answer.note };
}
