export {
  textOf,
  toolUsesOf,
  type Message,
  type MessagePart,
  type ProviderPart,
  type RedactedThinkingPart,
  type TextPart,
  type ThinkingPart,
  type ToolResultPart,
  type ToolUsePart,
} from './message.js';
export type { ModelParams, ModelRequest, ToolDefinition } from './model-request.js';
export { STOP_REASONS, type ModelResponse, type StopReason, type Usage, type WireAnswer } from './model-response.js';
export type { ToolRequest, ToolResponse } from './tool-call.js';
export {
  isMessage,
  isMessagePart,
  isModelParams,
  isModelRequestHead,
  isModelResponse,
  isToolDefinition,
  isToolResponse,
} from './shape-checks.js';
export {
  APPROVAL_KIND,
  approvalAnswerOf,
  approvalQuestionOf,
  approvalRequestOf,
  approvalResponseOf,
  isApprovalAnswer,
  rejectionContentOf,
  type ApprovalAnswer,
  type ApprovalQuestion,
  type ApprovalRequest,
} from './approval.js';
export { answerWord, type AnswerWord } from './answer-word.js';
