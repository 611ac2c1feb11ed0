import type { ApprovalAnswer, ModelResponse, ToolResponse } from '../conversation/index.js';
import type { Answered, ApprovalCall, ModelCall, ToolCall, Transport } from './transport.js';

/** What a fork injects at its step: a tool result, a model response, or a person's answer to an approval. */
export type InjectedAnswer =
  | { readonly type: 'tool'; readonly response: ToolResponse }
  | { readonly type: 'model'; readonly response: ModelResponse }
  | { readonly type: 'approval'; readonly answer: ApprovalAnswer };

/** Options of {@link overrideTransport}. */
export interface OverrideOptions {
  /** The step whose answer is replaced. */
  readonly step: number;
  /** The answer the fork injects there. */
  readonly answer: InjectedAnswer;
  /** Where every other answer comes from. */
  readonly live: Transport;
  /**
   * Where the injected answer says it came from: `override` (the default,
   * a fork's change), or `human` for a person's answer to the approval a run
   * waits on (`forkpoint approve`), which goes in the same way.
   */
  readonly provenance?: 'override' | 'human';
}

/**
 * A fork's transport: the answer at the fork step is the injected one, marked
 * `override`; every other request goes to the live world, a later approval
 * included, so a second question stops the run again. A person's answer to
 * the approval a run waits on goes in the same way, marked `human`. An
 * approval's injected answer must name the call it answers (the driver checks).
 */
export function overrideTransport(options: OverrideOptions): Transport {
  const { step, answer, live } = options;
  const provenance = options.provenance ?? 'override';
  return {
    async model(call: ModelCall): Promise<Answered<ModelResponse>> {
      if (call.step !== step || answer.type !== 'model') return live.model(call);
      return { response: structuredClone(answer.response), provenance };
    },
    async tool(call: ToolCall): Promise<Answered<ToolResponse>> {
      if (call.step !== step || answer.type !== 'tool') return live.tool(call);
      return { response: structuredClone(answer.response), provenance };
    },
    async approval(call: ApprovalCall): Promise<Answered<ApprovalAnswer> | undefined> {
      if (call.step !== step || answer.type !== 'approval') return live.approval?.(call);
      return { response: structuredClone(answer.answer), provenance };
    },
  };
}
