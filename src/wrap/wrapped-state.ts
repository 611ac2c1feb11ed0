import type { ModelRequest, ModelResponse, ToolResponse, ToolUsePart } from '../conversation/index.js';
import { toolUsesOf } from '../conversation/index.js';
import type { JsonObject } from '../json/index.js';
import type { AgentContext, AgentStateName } from '../machine/index.js';
import type { StepSnapshot } from '../driver/index.js';

/**
 * The state of a wrapped loop after each step, in the machine's checkpoint
 * shape, so that every reader of checkpoints reads a wrapped run's: the
 * conversation the loop has sent, the tool calls of the last model answer
 * it has not made yet, and the results of those it made. Steps are applied
 * in step order.
 */
export class WrappedState {
  private snapshot: StepSnapshot;

  constructor(input: JsonObject) {
    this.snapshot = {
      value: 'awaitingModel',
      context: {
        input,
        system: '',
        model: '',
        messages: [],
        pending: [],
        results: [],
        step: 0,
        calls: {},
        outcome: null,
        error: null,
      },
    };
  }

  /** The state now: checkpoint 0 before any step. */
  get current(): StepSnapshot {
    return this.snapshot;
  }

  /** After a model step: the request's conversation, and the answer's tool calls pending. */
  model(step: number, index: number, request: ModelRequest, response: ModelResponse): StepSnapshot {
    const pending = toolUsesOf({ role: 'assistant', content: response.content });
    return this.advance(pending.length > 0 ? 'awaitingTools' : 'awaitingModel', {
      ...this.snapshot.context,
      system: request.system,
      model: request.model,
      messages: request.messages,
      pending,
      results: [],
      step,
      calls: counted(this.snapshot.context.calls, 'model', index),
    });
  }

  /** After a tool step: the call it answered (if the last model answer asked for it) is no longer pending. */
  tool(
    step: number,
    kind: string,
    index: number,
    answered: ToolUsePart | undefined,
    response: ToolResponse,
  ): StepSnapshot {
    const { context } = this.snapshot;
    const pending = answered === undefined ? context.pending : context.pending.filter((part) => part !== answered);
    const results =
      answered === undefined
        ? context.results
        : [
            ...context.results,
            {
              type: 'tool_result' as const,
              toolUseId: answered.id,
              content: response.output,
              isError: response.isError,
            },
          ];
    return this.advance(pending.length > 0 ? 'awaitingTools' : 'awaitingModel', {
      ...context,
      pending,
      results,
      step,
      calls: counted(context.calls, kind, index),
    });
  }

  private advance(value: AgentStateName, context: AgentContext): StepSnapshot {
    this.snapshot = { value, context };
    return this.snapshot;
  }
}

// A kind's count is one past the highest index it was called at: indexes are positions, which a loop may skip.
function counted(
  calls: Readonly<Record<string, number>>,
  kind: string,
  index: number,
): Readonly<Record<string, number>> {
  return { ...calls, [kind]: Math.max(calls[kind] ?? 0, index + 1) };
}
