import type { ModelResponse } from '../../../src/conversation/index.js';
import type { JsonObject } from '../../../src/json/index.js';

/** The system prompt the loops send (a test changes it to see a replay diverge). */
export const CLAIM_SYSTEM = 'You triage motor insurance claims. Use the tools, then answer DECISION: approve or deny.';

/** The model the loops ask for: not a family any SDK rewrites requests for. */
export const LOOP_MODEL = 'emulated-claude';

/** The tools of the claims loop, counting every real call, with the OCR misreading the folded form (205 for 2050). */
export function claimTools() {
  const calls = { fetch_claim: 0, ocr_document: 0, estimate_repair: 0 };
  return {
    calls,
    total: () => calls.fetch_claim + calls.ocr_document + calls.estimate_repair,
    fetch_claim: (input: JsonObject) => {
      calls.fetch_claim += 1;
      return { claimId: input.claimId ?? null, policy: 'P-7731', documentId: 'DOC-4' };
    },
    ocr_document: (input: JsonObject) => {
      calls.ocr_document += 1;
      return { documentId: input.documentId ?? null, invoiceTotal: 205 };
    },
    estimate_repair: (input: JsonObject) => {
      calls.estimate_repair += 1;
      const total = typeof input.invoiceTotal === 'number' ? input.invoiceTotal : 0;
      return { estimate: 1900, plausible: total >= 1000 };
    },
  };
}

/** The tool definitions the loops give the model. */
export const CLAIM_TOOL_DEFINITIONS = [
  { name: 'fetch_claim', description: 'Reads a claim.', schema: { claimId: 'string' } },
  { name: 'ocr_document', description: 'Reads a scanned document.', schema: { documentId: 'string' } },
  { name: 'estimate_repair', description: 'Estimates the repair.', schema: { invoiceTotal: 'number' } },
].map(({ name, description, schema }) => ({
  name,
  description,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(Object.entries(schema).map(([key, type]) => [key, { type }])),
    required: Object.keys(schema),
    additionalProperties: false,
  },
}));

let minted = 0;
const toolTurn = (name: string, input: JsonObject, text: string): ModelResponse => {
  minted += 1;
  return {
    id: `msg_${minted}`,
    model: LOOP_MODEL,
    content: [
      { type: 'text', text },
      { type: 'tool_use', id: `toolu_${minted}_${name}`, name, input },
    ],
    stopReason: 'tool_use',
    usage: { inputTokens: 120, outputTokens: 30 },
  };
};
const finalTurn = (text: string): ModelResponse => {
  minted += 1;
  return {
    id: `msg_${minted}`,
    model: LOOP_MODEL,
    content: [{ type: 'text', text }],
    stopReason: 'end_turn',
    usage: { inputTokens: 200, outputTokens: 12 },
  };
};

/**
 * What the model answers in the incident (each call mints fresh ids, as a
 * provider does): claim, OCR, estimate on the misread total, deny.
 */
export const incidentAnswers = (): ModelResponse[] => [
  toolTurn('fetch_claim', { claimId: 'CLM-91077' }, 'Reading the claim.'),
  toolTurn('ocr_document', { documentId: 'DOC-4' }, 'Reading the invoice.'),
  toolTurn('estimate_repair', { invoiceTotal: 205 }, 'Checking the total.'),
  finalTurn('DECISION: deny (invoice of 205 does not match a 1900 repair)'),
];

/** What the model answers after the fork's corrected OCR (2050): the estimate on it, then approve. */
export const correctedAnswers = (): ModelResponse[] => [
  toolTurn('estimate_repair', { invoiceTotal: 2050 }, 'Checking the total.'),
  finalTurn('DECISION: approve (invoice of 2050 matches a 1900 repair)'),
];

/** The decision in a loop's final text. */
export function decisionOf(text: string): JsonObject {
  const match = /DECISION: (\w+)/.exec(text);
  return { decision: match?.[1] ?? 'none' };
}
