import type { SpokenMove } from './triage-policy.js';

/** What the model says with each move. The first phrasing is the usual one. */
const PHRASES: Record<Exclude<SpokenMove, { kind: 'decide' }>['stage'] | 'decide', readonly string[]> = {
  claim: ['I will start by fetching the claim.', 'Let me pull up the claim details first.', 'First, the claim record.'],
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
  payment: [
    'The claim is payable: issuing the payment before I write the decision.',
    'Paying the approved amount now.',
    'Sending the payout to the payment desk.',
  ],
  decide: ['Assessment complete.', 'Here is my decision.', 'Decision follows.'],
};

/** Sonnet words things its own way. */
const SONNET_PREFIX = 'Understood. ';

/**
 * Picks the phrasing of a move: the usual one, except for a `variation` share
 * of calls, which take another, as sampling does.
 */
export function phrase(move: SpokenMove, modelId: string, random: () => number, variation: number): string {
  const options = PHRASES[move.kind === 'call' ? move.stage : 'decide'];
  const varied = random() < variation;
  const choice = varied ? 1 + Math.floor(random() * (options.length - 1)) : 0;
  const text = options[choice];
  if (text === undefined) throw new Error(`no phrase ${choice} for a ${move.kind} move`);
  return modelId === 'claude-sonnet-5' ? SONNET_PREFIX + text : text;
}

/** The model's reasoning before a move, as a thinking block shows it. */
export function reasoning(move: SpokenMove): string {
  if (move.kind === 'decide') {
    const { decision, reason } = move.decision;
    return [
      `I have what I need to decide. ${reason}`,
      `Checking the rules from the instructions: the peril must be covered, the estimate must be within the cover limit, and the payout is the estimate minus the deductible.`,
      `That gives "${decision}". I will state the decision and the reason as one line of JSON.`,
    ].join(' ');
  }
  const calls = move.calls.map((call) => `${call.name}(${JSON.stringify(call.input)})`).join(', ');
  return `Next step in the triage procedure: ${move.stage}. I will call ${calls} and read the result before going on.`;
}
