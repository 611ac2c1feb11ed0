import type { ToolHandler, World, WorldOptions } from '../../../src/index.js';
import { simulatedModel } from '../model/simulated-model.js';
import { claimsTools } from '../world/claims-world.js';
import { latencyDelay } from '../world/latency.js';
import type { CaseWorld } from './case-world.js';

/**
 * The live world of one synthetic case on day `options.at`: the simulated
 * model with the run's seed, and the claims tools answering from the case's
 * claim, policy and documents only. Open one per run: the OCR timeouts are
 * counted per document within the world.
 */
export function openSyntheticWorld(world: CaseWorld, options: WorldOptions): World {
  const delay = latencyDelay(options.latencyMs);
  const tools = claimsTools({ claims: [world.claim], policies: [world.policy] }, options.at, delay);
  return {
    model: simulatedModel({ seed: options.seed, latencyMs: options.latencyMs }),
    tools: { ...tools, ocr_document: timingOut(tools.ocr_document, world.timeouts, delay) },
  };
}

/** Wraps the OCR backend so that the first `timeouts.get(id)` calls on each document time out. */
function timingOut(ocr: ToolHandler, timeouts: ReadonlyMap<string, number>, delay: () => Promise<void>): ToolHandler {
  const attempts = new Map<string, number>();
  return async (input) => {
    const documentId = input.document_id;
    if (typeof documentId === 'string') {
      const attempt = (attempts.get(documentId) ?? 0) + 1;
      attempts.set(documentId, attempt);
      if (attempt <= (timeouts.get(documentId) ?? 0)) {
        await delay();
        // A transient failure, flagged as such: the builds' retryTool reads the flag, not the words.
        throw Object.assign(new Error('ocr_document timed out after 30 s'), { retryable: true });
      }
    }
    return ocr(input);
  };
}
