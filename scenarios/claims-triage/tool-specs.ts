import type { ToolSpec } from '../../src/index.js';

/** The four tools of the claims-triage agent. Only `estimate_repair` writes (it registers an estimate). */
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
  },
  {
    name: 'fetch_policy',
    description: 'Fetch a policy: deductible, cover limit, currency and covered perils.',
    inputSchema: { type: 'object', properties: { policy_id: { type: 'string' } }, required: ['policy_id'] },
    readOnly: true,
  },
];
