// The OpenTelemetry GenAI semantic conventions (semantic-conventions v1.41.1, "Development" status), pinned
// here rather than imported: their incubating constants change between minor releases, and a trace
// backend reads the names, not the package.

/** `gen_ai.*` attribute names forkpoint writes, as the GenAI conventions spell them. */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  agentVersion: 'gen_ai.agent.version',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  usageCacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  usageReasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  outputMessages: 'gen_ai.output.messages',
} as const;

/** The `gen_ai.operation.name` values forkpoint's spans use. */
export const GEN_AI_OPERATION = {
  chat: 'chat',
  invokeAgent: 'invoke_agent',
  executeTool: 'execute_tool',
} as const;

/**
 * The span name of a person's answer to an approval (`approval refund`): no
 * GenAI operation, since no model or tool was called, so not `execute_tool`.
 */
export const APPROVAL_SPAN = 'approval';

/** The general convention's error attribute: on a failed span, forkpoint's error code. */
export const ERROR_TYPE = 'error.type';

/** forkpoint's own attributes, under its own namespace as the conventions ask of vendors. */
export const FORKPOINT = {
  runId: 'forkpoint.run.id',
  mode: 'forkpoint.mode',
  status: 'forkpoint.status',
  step: 'forkpoint.step',
  kind: 'forkpoint.kind',
  index: 'forkpoint.index',
  cassetteKey: 'forkpoint.cassette.key',
  provenance: 'forkpoint.provenance',
  requestHash: 'forkpoint.request.hash',
  shapeHash: 'forkpoint.request.shape_hash',
  build: 'forkpoint.build',
  codeHash: 'forkpoint.code_hash',
  scenario: 'forkpoint.scenario',
  loop: 'forkpoint.loop',
  parentRunId: 'forkpoint.parent.run.id',
  forkAtStep: 'forkpoint.fork.at_step',
  sourceRunId: 'forkpoint.source.run.id',
  timing: 'forkpoint.timing',
  payloads: 'forkpoint.payloads',
  toolIsError: 'forkpoint.tool.is_error',
  approvalTool: 'forkpoint.approval.tool',
  approvalDecision: 'forkpoint.approval.decision',
  approvalBy: 'forkpoint.approval.by',
  approvalAt: 'forkpoint.approval.at',
  approvalRequestHash: 'forkpoint.approval.request_hash',
  approvalNote: 'forkpoint.approval.note',
  pendingApprovalTool: 'forkpoint.approval.pending.tool',
  pendingApprovalRequestHash: 'forkpoint.approval.pending.request_hash',
  errorMessage: 'forkpoint.error.message',
  linkType: 'forkpoint.link.type',
  recordedInputTokens: 'forkpoint.recorded_usage.input_tokens',
  recordedOutputTokens: 'forkpoint.recorded_usage.output_tokens',
  recordedCacheReadInputTokens: 'forkpoint.recorded_usage.cache_read.input_tokens',
  recordedCacheCreationInputTokens: 'forkpoint.recorded_usage.cache_creation.input_tokens',
  recordedReasoningOutputTokens: 'forkpoint.recorded_usage.reasoning.output_tokens',
} as const;
