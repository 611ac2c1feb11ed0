import type { JsonObject, JsonValue } from '../json/index.js';

/** One tool observation, as a build's {@link ObservationClassifier} sees it. */
export interface Observation {
  readonly tool: string;
  readonly input: JsonObject;
  readonly output: JsonValue;
  readonly isError: boolean;
}

/**
 * A build's word on what class an observation is in, for failure signatures:
 * a short label (`ocr-confidence<0.5`) when the value matters to how runs of
 * the build end, null when only its shape does. Pure, and part of the build's
 * code hash: a label is computed when the run ends and stored with it.
 */
export type ObservationClassifier = (observation: Observation) => string | null;
