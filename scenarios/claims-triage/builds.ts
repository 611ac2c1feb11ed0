import type {
  AgentDefinition,
  FailedToolCall,
  JsonObject,
  Observation,
  ToolResultCheck,
  ToolResultVerdict,
} from '../../src/index.js';
import { defineAgent, isJsonObject } from '../../src/index.js';
import { parseDecision, validateDecision } from './outcome.js';
import { ISSUE_PAYMENT, TOOL_SPECS } from './tool-specs.js';

/** The claims-triage instructions every build starts from. */
export const SYSTEM_PROMPT = [
  'You are the claims-triage assistant of a motor insurer.',
  'For the claim you are given: fetch it, read every assessor form with ocr_document, request a repair estimate',
  'for the total damaged area, fetch the policy, and decide. Approve with payout = estimate minus deductible when',
  'the peril is covered and the estimate is within the cover limit; deny when the peril is not covered or the claim',
  'is settled; refer to a human assessor when the claim is disputed or the estimate exceeds the cover limit.',
  'End with one line of JSON: {"decision": "approve" | "refer" | "deny", "payout": number | null, "reason": string}.',
].join('\n');

const common: Omit<AgentDefinition, 'build' | 'systemPrompt'> = {
  name: 'claims-triage',
  model: 'claude-opus-5',
  params: { maxTokens: 2048 },
  tools: TOOL_SPECS,
  stepCap: 24,
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a hook's source is part of the build's code hash: rewriting it would change the hash of every build
  renderInput: (input: JsonObject) => `Triage claim ${String(input.claimId)} and write your decision.`,
  parseOutcome: parseDecision,
  validateOutcome: validateDecision,
  // The OCR service times out now and then and answers on a second try: retry a timeout twice (three
  // attempts in all) before the model sees the error. Written inline, so that its source is in the code hash.
  retryTool: (failed: FailedToolCall): boolean => {
    if (failed.call.name !== 'ocr_document' || failed.attempt > 2) return false;
    const output = failed.response.output;
    return isJsonObject(output) && output.retryable === true;
  },
  // For failure signatures: an OCR reading under 0.5 is what the folded-form failures have in common, whatever
  // the value read. It changes nothing a run does, so it is not part of the code hash.
  classifyObservation: (observation: Observation): string | null => {
    if (observation.tool !== 'ocr_document' || observation.isError) return null;
    const fields = isJsonObject(observation.output) ? observation.output.fields : undefined;
    if (!isJsonObject(fields)) return null;
    const low = Object.values(fields).some(
      (field) => isJsonObject(field) && typeof field.confidence === 'number' && field.confidence < 0.5,
    );
    return low ? 'ocr-confidence<0.5' : null;
  },
};

/** The build that was running on 4 March: it trusts every OCR reading. */
export const baseline = defineAgent({ ...common, build: 'baseline', systemPrompt: SYSTEM_PROMPT });

/**
 * The candidate fix: the harness checks every OCR field's confidence as the
 * result arrives, and below 0.55 ends the run there with a referral to a
 * human assessor, without another model call.
 */
export const patched = defineAgent({
  ...common,
  build: 'patched',
  systemPrompt: SYSTEM_PROMPT,
  guardToolResult: (check: ToolResultCheck): ToolResultVerdict => {
    const minimum = 0.55;
    if (check.call.name !== 'ocr_document' || check.response.isError) return { action: 'continue' };
    const output = check.response.output;
    const fields = isJsonObject(output) ? output.fields : undefined;
    if (!isJsonObject(fields)) return { action: 'continue' };
    for (const [name, field] of Object.entries(fields)) {
      const confidence = isJsonObject(field) ? field.confidence : undefined;
      if (typeof confidence === 'number' && confidence < minimum) {
        return {
          action: 'finish',
          outcome: {
            decision: 'refer',
            payout: null,
            reason: `OCR read ${name} at confidence ${confidence} (below ${minimum}); referred to a human assessor.`,
          },
        };
      }
    }
    return { action: 'continue' };
  },
});

/** Baseline with the current time in its system prompt: the defect that breaks replay and the prompt cache. */
export const timestamped = defineAgent({
  ...common,
  build: 'timestamped',
  systemPrompt: ({ now }) => `${SYSTEM_PROMPT}\nCurrent time: ${now.toISOString()}`,
});

/**
 * Baseline that also pays what it approves, with `issue_payment`: a payout
 * above EUR 1,000 waits for a person's approval (the tool's own rule), so its
 * run stops at rest until someone answers with `forkpoint approve`.
 */
export const supervised = defineAgent({
  ...common,
  build: 'supervised',
  systemPrompt: [
    SYSTEM_PROMPT,
    'When you approve a positive payout, pay it with issue_payment before you write the decision, and name the payment',
    'id in the reason. A payout above EUR 1,000 is paid only once a reviewer approves it; if the reviewer rejects it or',
    'the payment fails, refer the claim to a human assessor with payout null and say why.',
  ].join('\n'),
  tools: [...TOOL_SPECS, ISSUE_PAYMENT],
});
