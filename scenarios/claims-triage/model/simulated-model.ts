import { setTimeout as sleep } from 'node:timers/promises';
import type { MessagePart, ModelProvider, ModelRequest, ModelResponse } from '../../../src/index.js';
import { ForkpointError } from '../../../src/index.js';
import { readConversation } from './conversation-facts.js';
import { opaqueToken, seededRandom } from './seeded-random.js';
import type { ModelTraits } from './triage-policy.js';
import { nextMove } from './triage-policy.js';
import { phrase, reasoning } from './wording.js';

/** The model ids the simulated provider serves. */
export const MODEL_TRAITS: Readonly<
  Record<string, ModelTraits & { readonly acceptsSampling: boolean; readonly thinks: boolean }>
> = {
  // Rejects sampling parameters outright, as the real one does; thinks adaptively. Trusts faint readings,
  // but refers one it can barely see (below 0.2; the recorded world's lowest is 0.38, so its runs are unchanged).
  'claude-opus-5': { refersBelowConfidence: 0.2, borderlineReferralRate: 0.25, acceptsSampling: false, thinks: true },
  // Accepts them, and is warier of low-confidence readings.
  'claude-sonnet-5': { refersBelowConfidence: 0.5, borderlineReferralRate: 0.5, acceptsSampling: true, thinks: false },
};

/** Options of {@link simulatedModel}. */
export interface SimulatedModelOptions {
  /** Pins the sampling: the same seed and the same requests give the same responses. */
  readonly seed: number;
  /** The share of calls whose wording varies (default 0.1); choices vary only on borderline claims. */
  readonly variation?: number;
  /** Simulated latency per call. */
  readonly latencyMs?: number;
}

/**
 * A model provider that plays the claims-triage model: a deterministic policy
 * with seeded sampling, drifting slowly like a real model. Each call draws from
 * its own stream (seed, the call's position in the conversation), so a pinned
 * seed repeats exactly while different seeds word about one call in ten
 * differently. Like a real provider it keeps no state between calls: a run
 * resumed in another process, or a fork continuing a conversation, gets the
 * answers an uninterrupted run with the same seed would have got.
 */
export function simulatedModel(options: SimulatedModelOptions): ModelProvider {
  const variation = options.variation ?? 0.1;
  const latencyMs = options.latencyMs ?? 0;
  return {
    async respond(request: ModelRequest): Promise<ModelResponse> {
      const traits = checkRequest(request);
      if (latencyMs > 0) await sleep(latencyMs);
      // The model turns so far number this call: the first call of a run is 0, as it always was.
      const position = request.messages.filter((message) => message.role === 'assistant').length;
      const random = seededRandom(options.seed, position);
      const move = nextMove(readConversation(request.messages, request.tools), traits, random);
      // A refusal is said plainly, without reasoning shown, as a provider's refusal comes back.
      if (move.kind === 'refuse') return refusal(request, move.reason, random);
      const text = phrase(move, request.model, random, variation);
      const content: MessagePart[] = [];
      // Thinking is adaptive: a thinking model reasons before every turn, at more length before a decision.
      if (traits.thinks)
        content.push({ type: 'thinking', thinking: reasoning(move), signature: opaqueToken(random, 96) });
      if (move.kind === 'decide') {
        content.push({ type: 'text', text: `${text}\n${JSON.stringify(move.decision)}` });
      } else {
        content.push({ type: 'text', text });
        for (const call of move.calls) {
          content.push({
            type: 'tool_use',
            id: `toolu_${opaqueToken(random, 24)}`,
            name: call.name,
            input: call.input,
          });
        }
      }
      return {
        id: `msg_${opaqueToken(random, 24)}`,
        model: request.model,
        content,
        stopReason: move.kind === 'decide' ? 'end_turn' : 'tool_use',
        usage: {
          inputTokens: Math.ceil(request.system.length / 4) + 150 * request.messages.length,
          outputTokens: Math.ceil(text.length / 4) + 40,
        },
      };
    },
  };
}

function refusal(request: ModelRequest, reason: string, random: () => number): ModelResponse {
  return {
    id: `msg_${opaqueToken(random, 24)}`,
    model: request.model,
    content: [{ type: 'text', text: reason }],
    stopReason: 'refusal',
    usage: {
      inputTokens: Math.ceil(request.system.length / 4) + 150 * request.messages.length,
      outputTokens: Math.ceil(reason.length / 4),
    },
  };
}

function checkRequest(request: ModelRequest): ModelTraits & { acceptsSampling: boolean; thinks: boolean } {
  const traits = MODEL_TRAITS[request.model];
  if (traits === undefined) {
    throw new ForkpointError(
      'PROVIDER_REJECTED',
      `404 not_found_error: model ${request.model} does not exist; use one of ${Object.keys(MODEL_TRAITS).join(', ')}`,
    );
  }
  const sampling = (['temperature', 'topP', 'topK'] as const).filter((key) => request.params[key] !== undefined);
  if (!traits.acceptsSampling && sampling.length > 0) {
    throw new ForkpointError(
      'PROVIDER_REJECTED',
      `400 invalid_request_error: ${sampling.join(', ')} ${sampling.length === 1 ? 'is' : 'are'} not supported by ${request.model}; remove ${sampling.length === 1 ? 'it' : 'them'} from the build's params`,
    );
  }
  return traits;
}
