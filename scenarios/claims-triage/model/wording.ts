import type { Decision, Move } from './triage-policy.js';

/** What the model says with each move. The first phrasing is the usual one. */
const PHRASES: Record<Exclude<Move, { kind: 'decide' }>['stage'] | 'decide', readonly string[]> = {
  claim: [
    'I will start by fetching the claim.',
    'Let me pull up the claim details first.',
    'First, the claim record.',
  ],
  ocr: [
    "I'll read the assessor's form to get the damaged area.",
    'Next I need the measurements from the assessor form.',
    'Reading the attached assessor documents now.',
  ],
  estimate: [
    'With the damage area known, I will request a repair estimate.',
    'Now an estimate for the repair.',
    'I have the measurements; asking the estimator for a price.',
  ],
  policy: [
    'Checking the policy for cover and the deductible.',
    'Let me look at the policy terms.',
    'Fetching the policy to apply the deductible.',
  ],
  decide: ['Assessment complete.', 'Here is my decision.', 'Decision follows.'],
};

/** Sonnet words things its own way. */
const SONNET_PREFIX = 'Understood. ';

/**
 * Picks the phrasing of a move: the usual one, except for a `variation` share
 * of calls, which take another, as sampling does.
 */
export function phrase(move: Move, modelId: string, random: () => number, variation: number): string {
  const options = PHRASES[move.kind === 'call' ? move.stage : 'decide'];
  const varied = random() < variation;
  const choice = varied ? 1 + Math.floor(random() * (options.length - 1)) : 0;
  const text = options[choice]!;
  return modelId === 'claude-sonnet-5' ? SONNET_PREFIX + text : text;
}

/** The model's reasoning before a decision, as a thinking block shows it. */
export function reasoning(decision: Decision): string {
  return `The facts gathered so far support "${decision.decision}". ${decision.reason} I will write the decision as JSON.`;
}
