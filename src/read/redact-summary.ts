import type { JsonObject, JsonValue } from '../json/index.js';
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
    findings: run.findings.map((finding) => shapeJson(finding as JsonValue) as JsonObject),
  };
}
