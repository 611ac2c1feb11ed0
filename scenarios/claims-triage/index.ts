import type { JsonObject } from '../../src/index.js';
import { ForkpointError, defineScenario } from '../../src/index.js';
import { baseline, patched, supervised, timestamped } from './builds.js';
import { CLAIMS_PRICES } from './prices.js';
import { claimsStory } from './story.js';
import { claimsSummarize } from './summarize.js';
import { claimsSynthetic } from './synthetic-suite/index.js';
import { CLAIMS } from './world/claims-data.js';
import { openClaimsWorld } from './world/open-world.js';

/**
 * The claims-triage scenario: an agent that triages motor insurance claims
 * over a dated, drifting world, and the incident of CLM-91077.
 */
export default defineScenario({
  name: 'claims-triage',
  description:
    'Triage motor insurance claims: fetch the claim, OCR the assessor form, estimate, apply the policy, decide.',
  builds: { baseline, patched, timestamped, supervised },
  defaultBuild: 'baseline',
  inputFlags: { claim: { description: 'the claim to triage, e.g. CLM-91077' } },
  inputFrom(flags): JsonObject {
    const claimId = flags.claim;
    if (claimId === undefined) throw new ForkpointError('USAGE', 'record needs --claim ID, e.g. --claim CLM-91077');
    if (!CLAIMS.some((claim) => claim.claimId === claimId)) {
      throw new ForkpointError(
        'INPUT_INVALID',
        `unknown claim ${claimId}; the claims are ${CLAIMS.map((claim) => claim.claimId).join(', ')}`,
      );
    }
    return { claimId };
  },
  allInputs: () => CLAIMS.map((claim) => ({ claimId: claim.claimId })),
  openWorld: (options) => openClaimsWorld(options),
  synthetic: claimsSynthetic,
  summarize: claimsSummarize,
  story: claimsStory,
  prices: CLAIMS_PRICES,
});

export { baseline, patched, supervised, timestamped } from './builds.js';
export { CLAIMS, POLICIES } from './world/claims-data.js';
export { OCR_V2_FROM } from './world/read-document.js';
export { openClaimsWorld, type ClaimsWorldOptions } from './world/open-world.js';
export { simulatedModel, MODEL_TRAITS } from './model/simulated-model.js';
export { claimsSynthetic, CASE_PATHS, type CasePath } from './synthetic-suite/index.js';
