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

/**
 * A story's approval chapter: a build that asks a person before some calls,
 * recorded (or found) under a fixed run id on an input where it asks; a
 * reviewer approves the call, a strict replay serves the answer, and a fork
 * answers it otherwise.
 */
export interface StoryApproval {
  readonly runId: string;
  /** The build whose rule asks for the approval. */
  readonly build: string;
  readonly input: JsonObject;
  /** The world's date it is recorded against, `YYYY-MM-DD`. */
  readonly at: string;
  readonly seed: number;
  /** Who approves the call, and why, in their words. */
  readonly reviewer: string;
  readonly note: string;
  /** Why the reviewer rejects the call in the fork that answers otherwise. */
  readonly rejection: string;
  /** The sentences of the chapter, in the scenario's words. */
  readonly text: {
    /** The chapter's title. */
    readonly chapter: string;
    /** After the recording stopped at rest: what it waits for. */
    readonly waiting: string;
    /** After the approval let the run go on. */
    readonly approved: string;
    /** After the strict replay served the answer from the recording. */
    readonly replayed: string;
    /** After the fork in which the reviewer rejected the call. */
    readonly rejected: string;
  };
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
 * prompt, let retention remove the full tier, score the synthetic cases, and,
 * where the scenario has them, find the incident's class over a period and
 * put a person in the loop of a run.
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
  /** The approval chapter; no chapter without one. */
  readonly approval?: StoryApproval;
  readonly text: StoryText;
}
