import type { ApprovalAnswer, ModelResponse, ToolResponse, ToolUsePart } from '../conversation/index.js';

/** The model answered the request the machine was waiting for. */
export interface ModelRespondedEvent {
  readonly type: 'model.responded';
  readonly response: ModelResponse;
}

/** A tool answered the call the machine was waiting for. */
export interface ToolReturnedEvent {
  readonly type: 'tool.returned';
  readonly call: ToolUsePart;
  readonly response: ToolResponse;
}

/** A person answered whether the awaited tool call may be made. */
export interface ApprovalAnsweredEvent {
  readonly type: 'approval.answered';
  readonly call: ToolUsePart;
  readonly answer: ApprovalAnswer;
}

/** A fork changed the system prompt or the model before the next model request. */
export interface ForkOverriddenEvent {
  readonly type: 'fork.overridden';
  readonly system?: string;
  readonly model?: string;
}

/** Every event the agent machine accepts. Observations are the only way it moves. */
export type AgentEvent = ModelRespondedEvent | ToolReturnedEvent | ApprovalAnsweredEvent | ForkOverriddenEvent;
