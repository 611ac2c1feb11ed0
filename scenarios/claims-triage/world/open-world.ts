import { setTimeout as sleep } from 'node:timers/promises';
import type { World, WorldOptions } from '../../../src/index.js';
import { simulatedModel } from '../model/simulated-model.js';
import { claimsTools } from './claims-world.js';

/** Options of {@link openClaimsWorld}: the world options, and the model's wording variation. */
export interface ClaimsWorldOptions extends WorldOptions {
  readonly variation?: number;
}

/** The claims-triage world on day `at`: the simulated model and the four tool backends. */
export function openClaimsWorld(options: ClaimsWorldOptions): World {
  const delay = options.latencyMs > 0 ? () => sleep(options.latencyMs).then(() => undefined) : () => Promise.resolve();
  return {
    model: simulatedModel({
      seed: options.seed,
      latencyMs: options.latencyMs,
      ...(options.variation === undefined ? {} : { variation: options.variation }),
    }),
    tools: claimsTools(options.at, delay),
  };
}
