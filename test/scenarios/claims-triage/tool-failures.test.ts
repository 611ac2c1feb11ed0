import { describe, expect, it } from 'vitest';
import type { World } from '../../../src/world/index.js';
import { fieldText } from '../../support/field-text.js';
import { callTool, recordClaim } from './claims-fixtures.js';

describe('the claims world and model when a tool fails', () => {
  it.each(['constructor', 'toString', '__proto__'])('refuses the peril %s instead of pricing it', async (peril) => {
    await expect(callTool('2026-03-04', 'estimate_repair', { damage_area_cm2: 100, peril })).rejects.toThrow(
      /no repair rate for peril/,
    );
  });

  it.each(['ocr_document', 'estimate_repair', 'fetch_policy'])(
    'refers the claim when %s answers with an error, without retrying it',
    async (tool) => {
      const failing = (world: World): World => ({
        ...world,
        tools: { ...world.tools, [tool]: () => Promise.reject(new Error(`${tool} is down`)) },
      });
      const run = await recordClaim({ claimId: 'CLM-91002', at: '2026-03-04', wrapWorld: failing });
      expect(run.status).toBe('completed');
      expect(run.outcome).toMatchObject({ decision: 'refer', payout: null });
      expect(fieldText(run.outcome?.reason)).toContain(`${tool} is down`);
      expect(run.steps.filter((step) => step.kind === tool)).toHaveLength(1);
    },
  );
});
