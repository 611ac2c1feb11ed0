import type { ApprovalAnswer } from '../conversation/index.js';
import type { Answered, ApprovalCall, Transport } from './transport.js';

/** Options of {@link humanAnswerTransport}. */
export interface HumanAnswerOptions {
  /** The step of the approval the person answered. */
  readonly step: number;
  /** Their answer, bound to the call's request hash. */
  readonly answer: ApprovalAnswer;
  /** Where every other request goes: the run's own world. */
  readonly live: Transport;
}

/**
 * The transport of a run a person let go on (`forkpoint approve`): the
 * approval the run waits for at `step` is answered with the person's answer,
 * marked `human`; every other request, a later approval included, goes to
 * `live`, so a second question stops the run again.
 */
export function humanAnswerTransport(options: HumanAnswerOptions): Transport {
  const { step, answer, live } = options;
  return {
    model: (call) => live.model(call),
    tool: (call) => live.tool(call),
    async approval(call: ApprovalCall): Promise<Answered<ApprovalAnswer> | undefined> {
      if (call.step !== step) return live.approval?.(call);
      return { response: answer, provenance: 'human' };
    },
  };
}
