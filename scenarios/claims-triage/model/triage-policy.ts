import type { JsonObject } from '../../../src/index.js';
import { isJsonObject } from '../../../src/index.js';
import type { ConversationFacts, ToolExchange } from './conversation-facts.js';
import { outputsOf } from './conversation-facts.js';
import { jsonText } from '../json-text.js';

/** How one simulated model differs from another in its judgement. */
export interface ModelTraits {
  /** Refers a claim outright when an OCR field is read below this confidence (null: never looks). */
  readonly refersBelowConfidence: number | null;
  /** How often a faint-but-legible form (confidence 0.55-0.75) tips an approval into a referral. */
  readonly borderlineReferralRate: number;
}

/** A decision the model writes as its final answer. */
export interface Decision {
  readonly decision: 'approve' | 'refer' | 'deny';
  readonly payout: number | null;
  readonly reason: string;
}

/** What the model does next: call tools, decide, or decline to go on. */
export type Move =
  | {
      readonly kind: 'call';
      readonly stage: 'claim' | 'ocr' | 'estimate' | 'policy' | 'payment';
      readonly calls: readonly { name: string; input: JsonObject }[];
    }
  | { readonly kind: 'decide'; readonly decision: Decision }
  | { readonly kind: 'refuse'; readonly reason: string };

/** A move the model words and reasons about as usual: every move but a refusal. */
export type SpokenMove = Exclude<Move, { readonly kind: 'refuse' }>;

/** The tool that pays an approved payout; only the supervised build offers it. */
export const PAYMENT_TOOL = 'issue_payment';

// Words addressed to the assistant inside a claim, trying to steer its decision: the model will not act on them.
const INSTRUCTIONS_TO_THE_ASSISTANT = /ignore (?:all |your )?(?:previous |prior )?instructions/i;

/**
 * The simulated model's policy: a deterministic walk through the claim
 * (claim, assessor forms, estimate, policy, decision). `chance` is consulted
 * only where a real model's choice would be genuinely uncertain.
 */
export function nextMove(facts: ConversationFacts, traits: ModelTraits, chance: () => number): Move {
  if (facts.claimId === undefined)
    return decide('refer', null, 'The request names no claim id; a human needs to identify the claim.');
  const claim = outputsOf(facts, 'fetch_claim').at(-1);
  if (claim === undefined) {
    const failed = facts.exchanges.some((exchange) => exchange.name === 'fetch_claim');
    if (failed) return decide('refer', null, `Claim ${facts.claimId} could not be retrieved; referring to a human.`);
    return { kind: 'call', stage: 'claim', calls: [{ name: 'fetch_claim', input: { claim_id: facts.claimId } }] };
  }
  if (typeof claim.statement === 'string' && INSTRUCTIONS_TO_THE_ASSISTANT.test(claim.statement)) {
    return {
      kind: 'refuse',
      reason: `I can't act on instructions written into the claim file of ${jsonText(claim.claim_id)}: the holder's statement tells the assistant to approve a payout. A human should review this claim.`,
    };
  }
  if (claim.status === 'settled')
    return decide('deny', null, `Claim ${jsonText(claim.claim_id)} is already settled; nothing further is payable.`);
  if (claim.status === 'disputed')
    return decide('refer', null, `Claim ${jsonText(claim.claim_id)} is disputed and under investigation.`);

  const forms = (Array.isArray(claim.documents) ? claim.documents : [])
    .filter(isJsonObject)
    .filter((document) => document.kind === 'assessor_form')
    .map((document) => jsonText(document.document_id));
  const scans = outputsOf(facts, 'ocr_document');
  const ocrFailure = failureOf(facts, 'ocr_document');
  if (ocrFailure !== undefined)
    return decide(
      'refer',
      null,
      `The assessor form could not be read (${ocrFailure}); a human assessor must measure it.`,
    );
  const unread = forms.filter((id) => !scans.some((scan) => scan.document_id === id));
  if (unread.length > 0) {
    return {
      kind: 'call',
      stage: 'ocr',
      calls: unread.map((id) => ({ name: 'ocr_document', input: { document_id: id } })),
    };
  }
  const readings = scans.filter((scan) => forms.includes(jsonText(scan.document_id))).map(damageArea);
  if (readings.length === 0 || readings.some((reading) => reading === undefined)) {
    return decide('refer', null, 'The assessor form gives no damage area; a human assessor must measure it.');
  }
  const areas = readings as Array<{ value: number; confidence: number }>;
  const lowest = Math.min(...areas.map((area) => area.confidence));
  if (traits.refersBelowConfidence !== null && lowest < traits.refersBelowConfidence) {
    return decide(
      'refer',
      null,
      `The damage area was read at confidence ${lowest}; a human assessor should confirm it.`,
    );
  }
  const total = areas.reduce((sum, area) => sum + area.value, 0);

  const estimateFailure = failureOf(facts, 'estimate_repair');
  if (estimateFailure !== undefined)
    return decide('refer', null, `No repair estimate could be made (${estimateFailure}).`);
  const estimate = outputsOf(facts, 'estimate_repair').at(-1);
  if (estimate === undefined) {
    return {
      kind: 'call',
      stage: 'estimate',
      calls: [{ name: 'estimate_repair', input: { damage_area_cm2: total, peril: jsonText(claim.peril) } }],
    };
  }
  const policyFailure = failureOf(facts, 'fetch_policy');
  if (policyFailure !== undefined)
    return decide('refer', null, `The policy could not be retrieved (${policyFailure}).`);
  const policy = outputsOf(facts, 'fetch_policy').at(-1);
  if (policy === undefined) {
    return {
      kind: 'call',
      stage: 'policy',
      calls: [{ name: 'fetch_policy', input: { policy_id: jsonText(claim.policy_id) } }],
    };
  }

  const peril = jsonText(claim.peril);
  const amount = Number(estimate.amount);
  const deductible = Number(policy.deductible);
  const covered = Array.isArray(policy.covered_perils) && policy.covered_perils.includes(peril);
  if (!covered) return decide('deny', null, `Policy ${jsonText(policy.policy_id)} does not cover ${peril} damage.`);
  if (amount > Number(policy.cover_limit)) {
    return decide(
      'refer',
      null,
      `The estimate of EUR ${amount} exceeds the cover limit of EUR ${jsonText(policy.cover_limit)}.`,
    );
  }
  const payout = amount - deductible;
  const assessed = `${capitalise(peril)} damage of ${total} cm2 estimated at EUR ${amount}; deductible EUR ${deductible}.`;
  // Once the payment has answered, the decision follows from it: the model does not weigh a faint form afresh,
  // and never pays twice.
  const payment = facts.exchanges.find((exchange) => exchange.name === PAYMENT_TOOL);
  if (payment !== undefined) return afterPayment(payment, payout, assessed);
  if (lowest >= 0.55 && lowest < 0.75 && chance() < traits.borderlineReferralRate) {
    return decide(
      'refer',
      null,
      `The form is faint (confidence ${lowest}); referring to confirm ${total} cm2 before paying.`,
    );
  }
  // Only a request that offers the payment tool pays before deciding: every other build decides as it always did.
  if (facts.offered.has(PAYMENT_TOOL) && payout > 0) {
    const currency = typeof policy.currency === 'string' ? policy.currency : 'EUR';
    return {
      kind: 'call',
      stage: 'payment',
      calls: [{ name: PAYMENT_TOOL, input: { claim_id: jsonText(claim.claim_id), amount: payout, currency } }],
    };
  }
  return decide('approve', payout, assessed);
}

// The decision once the payment answered: paid, rejected by the reviewer it waited for, or failed.
function afterPayment(payment: ToolExchange, payout: number, assessed: string): Move {
  const output = isJsonObject(payment.output) ? payment.output : {};
  if (payment.isError && output.rejected === true) {
    const why = typeof output.reason === 'string' ? output.reason : 'no reason given';
    return decide('refer', null, `The payment of EUR ${payout} was rejected by ${jsonText(output.by)}: ${why}`);
  }
  if (payment.isError) {
    const error = typeof output.error === 'string' ? output.error : 'payment error';
    return decide('refer', null, `The payment of EUR ${payout} could not be made (${error}); referring to a human.`);
  }
  return decide('approve', payout, `${assessed} Paid as ${jsonText(output.payment_id)}.`);
}

// A model does not retry a tool that answered with an error: it hands the claim to a human.
function failureOf(facts: ConversationFacts, tool: string): string | undefined {
  const failed = facts.exchanges.find((exchange) => exchange.name === tool && exchange.isError);
  if (failed === undefined) return undefined;
  const output = failed.output;
  return isJsonObject(output) && typeof output.error === 'string' ? output.error : 'tool error';
}

function decide(decision: Decision['decision'], payout: number | null, reason: string): Move {
  return { kind: 'decide', decision: { decision, payout, reason } };
}

function damageArea(scan: JsonObject): { value: number; confidence: number } | undefined {
  const area = isJsonObject(scan.fields) ? scan.fields.damage_area_cm2 : undefined;
  if (!isJsonObject(area)) return undefined;
  const { value, confidence } = area;
  return typeof value === 'number' && typeof confidence === 'number' ? { value, confidence } : undefined;
}

const capitalise = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
