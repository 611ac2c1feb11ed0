import type { Finding, ShapedFinding } from '../vocabulary/index.js';
import { isShapedFinding } from '../vocabulary/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonObject } from '../json/index.js';
import type { FullTierPurge, RunRecord } from '../store/index.js';
import { shapeJson, shapeString } from '../tiers/index.js';

/**
 * What a run's summary keeps of its payloads once its full tier is removed:
 * the input, the error message, a fork's override and the findings are
 * shaped like the structural tier. Status, outcome, counts, dates, build and
 * lineage stay as they were.
 */
export function redactedSummary(run: RunRecord): FullTierPurge['redacted'] {
  return {
    input: shapeJson(run.input) as JsonObject,
    error: run.error === null ? null : { ...run.error, message: shapeString(run.error.message) },
    override: run.parent === null ? null : shapeJson(run.parent.override),
    findings: run.findings.map(shapeFinding),
  };
}

// Shaped as any JSON is, so that no field escapes the shaping, then checked back into its type.
function shapeFinding(finding: Finding): ShapedFinding {
  const shaped = shapeJson(finding);
  if (!isShapedFinding(shaped))
    throw new ForkpointError('INTERNAL', `a finding did not keep its shape: ${finding.message}`);
  return shaped;
}
