import type { JsonObject } from '../json/index.js';

/** The recording a story starts from, made (or found) under a fixed run id. */
export interface StoryIncident {
  readonly runId: string;
  readonly input: JsonObject;
  /** The world's date it is recorded against, `YYYY-MM-DD`. */
  readonly at: string;
  readonly build: string;
  readonly seed: number;
  /** When the retention chapter's scratch copy of it was recorded (ISO 8601). */
  readonly recordedAt: string;
}

/** The days a story records every input on, for its classes chapter (`YYYY-MM-DD`, inclusive). */
export interface StoryPeriod {
  readonly from: string;
  readonly until: string;
}

/** The sentences a story tells between its runs, in the scenario's words. */
export interface StoryText {
  /** The title of each chapter the scenario names. */
  readonly chapters: {
    readonly record: string;
    readonly reexecute: string;
    readonly replay: string;
    readonly fork: string;
    readonly volatile: string;
    readonly synthetic: string;
  };
  /** After the incident's recording: where its failure comes from. */
  traceFailure(failedAtStep: number | undefined): string;
  /** Before the re-executions: why they run behind the firewall as they do. */
  readonly firewall: string;
  /** After the re-executions: what the control arm's ending means. */
  reexecuted(controlCompleted: boolean): string;
  /** After the strict replays of the fix and of the incident's build. */
  readonly replayed: string;
  /** After the fork stopped at the firewall. */
  readonly forkBlocked: string;
  /** After the strict replay of the volatile build. */
  readonly volatileReplayed: string;
  /** After the structural replays of the retention chapter. */
  readonly shapesReplayed: string;
  /** After the synthetic scores: what the fix costs, `count` cases by id. */
  syntheticCost(count: number, ids: readonly string[]): string;
}

/**
 * The story `forkpoint demo` tells over a scenario: record an incident,
 * re-execute it with a fix and a control arm, replay both strictly, fork the
 * incident at the step that explains it, replay a build with a volatile
 * prompt, let retention remove the full tier, and score the synthetic cases.
 * The CLI runs the chapters; the scenario supplies the data and the words.
 */
export interface ScenarioStory {
  readonly incident: StoryIncident;
  /** The build that fixes the incident; the incident's own build is the control arm. */
  readonly fix: string;
  /** A build whose first request changes on every run (a clock in its prompt). */
  readonly volatile: string;
  /** The period the classes chapter records, with the incident's build; no chapter without one. */
  readonly period?: StoryPeriod;
  /** The later world the incident is re-executed against, `YYYY-MM-DD`. */
  readonly laterAt: string;
  /** The side-effect policy of the re-executions and of the resumed fork, written as `--side-effects` takes it. */
  readonly sideEffects: string;
  /** The fork: the step it changes, and the change, written as `--override` takes it. */
  readonly fork: { readonly atStep: number; readonly override: JsonObject };
  /** The synthetic cases the fix costs: those it ends with this verdict where the incident's build passes. */
  readonly costVerdict: string;
  readonly text: StoryText;
}
