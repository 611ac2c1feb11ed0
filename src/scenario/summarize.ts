import type { JsonObject, JsonValue } from '../json/index.js';

/**
 * How a scenario's runs read in human output, in the scenario's own terms:
 * what its tools answered, and what its outcomes decided. Every part is
 * optional; the CLI falls back to compact JSON (and to `completed` for a
 * verdict), so a scenario without one still prints everything.
 */
export interface Summarize {
  /** A step's response in one line (`DOC-77120: damage_area_cm2 205 @ 0.38`); undefined for the generic summary. */
  response?(kind: string, response: JsonValue): string | undefined;
  /** An outcome in one line (`approve, payout 1795: reason`); undefined for compact JSON. */
  outcome?(outcome: JsonObject): string | undefined;
  /** An outcome in a word (`approve`), for trees and tallies; undefined for `completed`. */
  verdict?(outcome: JsonObject): string | undefined;
}
