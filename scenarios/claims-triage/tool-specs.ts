import type { ToolSpec } from '../../src/index.js';

/**
 * The four tools every claims-triage build offers. Only `estimate_repair`
 * writes (it registers an estimate), so it carries a simulator for the
 * side-effect firewall.
 */
export const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'fetch_claim',
    description: 'Fetch a claim: its policy, status, peril, narrative and attached documents.',
    inputSchema: { type: 'object', properties: { claim_id: { type: 'string' } }, required: ['claim_id'] },
    readOnly: true,
  },
  {
    name: 'ocr_document',
    description: 'Read a scanned document. Returns each recognised field with its confidence, and the full text.',
    inputSchema: { type: 'object', properties: { document_id: { type: 'string' } }, required: ['document_id'] },
    readOnly: true,
  },
  {
    name: 'estimate_repair',
    description: 'Register a repair estimate for a damaged area (cm2) and peril. Returns its id and amount.',
    inputSchema: {
      type: 'object',
      properties: { damage_area_cm2: { type: 'number' }, peril: { type: 'string' } },
      required: ['damage_area_cm2', 'peril'],
    },
    readOnly: false,
    // What a fork or a re-execution gets instead of registering a second estimate, when it asks for a
    // simulation by name: a desk estimate at the rates of price list PL-2026-01, the list this agent was
    // written against (the service's own list may have moved on). Its rates are written out here so that
    // they are part of the code hash.
    simulate: ({ input }) => {
      const rates: Readonly<Record<string, number>> = { hail: 1.1, collision: 1.3, storm: 1.2, fire: 1.6, flood: 2 };
      const area = input.damage_area_cm2;
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a hook's source is part of the build's code hash: rewriting it would change the hash of every build
      const peril = String(input.peril);
      if (typeof area !== 'number' || !(area >= 0))
        throw new Error('damage_area_cm2 must be a number of square centimetres');
      if (!Object.hasOwn(rates, peril)) throw new Error(`no repair rate for peril ${peril}`);
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- the same: the hash covers this line
      const amount = Math.round(area * rates[peril]! + 40);
      return {
        estimate_id: `SIM-${peril}-${area}`,
        amount,
        currency: 'EUR',
        price_list: 'PL-2026-01',
        simulated: true,
      };
    },
  },
  {
    name: 'fetch_policy',
    description: 'Fetch a policy: deductible, cover limit, currency and covered perils.',
    inputSchema: { type: 'object', properties: { policy_id: { type: 'string' } }, required: ['policy_id'] },
    readOnly: true,
  },
];

/**
 * The payment tool of the `supervised` build: it moves money, so it is not
 * read-only, and a payout above EUR 1,000 waits for a person's approval
 * before it is made. Its simulator answers a fork or a re-execution that asks
 * for one by name, paying nothing.
 */
export const ISSUE_PAYMENT: ToolSpec = {
  name: 'issue_payment',
  description: 'Pay an approved payout to the holder of a claim. Returns the payment id.',
  inputSchema: {
    type: 'object',
    properties: { claim_id: { type: 'string' }, amount: { type: 'number' }, currency: { type: 'string' } },
    required: ['claim_id', 'amount', 'currency'],
  },
  readOnly: false,
  // The limit is written here, not imported, so that it is part of the code hash: raising it is a new build.
  // An amount that is not a number cannot be checked against it, so it waits too.
  requiresApproval: ({ input }) => {
    const limit = 1000;
    return typeof input.amount !== 'number' || input.amount > limit;
  },
  simulate: ({ input, index }) => {
    const { claim_id: claimId, amount, currency } = input;
    if (typeof claimId !== 'string') throw new Error('claim_id must be a string');
    if (typeof amount !== 'number' || !(amount > 0)) throw new Error('amount must be a positive number');
    return {
      payment_id: `SIM-PAY-${claimId}-${index}`,
      claim_id: claimId,
      amount,
      currency: currency ?? 'EUR',
      simulated: true,
    };
  },
};
