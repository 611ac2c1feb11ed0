import type { World, WorldOptions } from '../../../src/index.js';
import { simulatedModel } from '../model/simulated-model.js';
import { CLAIMS, POLICIES } from './claims-data.js';
import { claimsTools } from './claims-world.js';
import { latencyDelay } from './latency.js';
import { withOutages } from './outages.js';

/** Options of {@link openClaimsWorld}: the world options, and the model's wording variation. */
export interface ClaimsWorldOptions extends WorldOptions {
  readonly variation?: number;
}

/**
 * The claims-triage world on day `at`: the simulated model and the five tool
 * backends, with that day's outages (see `withOutages`). It states its day
 * and seed, so every run that meets it stores them.
 */
export function openClaimsWorld(options: ClaimsWorldOptions): World {
  return {
    worldAt: options.at,
    seed: options.seed,
    model: simulatedModel({
      seed: options.seed,
      latencyMs: options.latencyMs,
      ...(options.variation === undefined ? {} : { variation: options.variation }),
    }),
    tools: withOutages(
      claimsTools({ claims: CLAIMS, policies: POLICIES }, options.at, latencyDelay(options.latencyMs)),
      options.at,
    ),
  };
}
