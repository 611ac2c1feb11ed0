import type { AgentBuild } from '../agent/index.js';
import type { JsonObject } from '../json/index.js';
import type { PriceTable } from '../pricing/index.js';
import type { World } from '../world/index.js';
import type { ScenarioStory } from './story.js';
import type { Summarize } from './summarize.js';
import type { SyntheticSupport } from './synthetic.js';
import type { WorldOptions } from './world-options.js';

/** A command-line flag that feeds a run's input. */
export interface InputFlag {
  readonly description: string;
}

/**
 * A packaged agent with its world: the builds, the input it takes, and a live
 * world to run against. Scenarios use only forkpoint's public interfaces.
 */
export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly builds: Readonly<Record<string, AgentBuild>>;
  readonly defaultBuild: string;
  /** The flags (`--claim`) a run's input is made from. */
  readonly inputFlags: Readonly<Record<string, InputFlag>>;
  /** Builds a run's input from flag values; throws `INPUT_INVALID` naming what is wrong and what is valid. */
  inputFrom(flags: Readonly<Record<string, string | undefined>>): JsonObject;
  /** Every input the scenario knows (for batch recording with `--claims ALL`-style flags). */
  allInputs?(): readonly JsonObject[];
  /**
   * Opens the live world on a day, with a seed. The world states the day and
   * seed it answers by (`World.worldAt`, `World.seed`), so every run stores them
   * and a later fork, resume or replay opens the same world again.
   */
  openWorld(options: WorldOptions): World;
  /** Runs and scores hand-written synthetic cases (`forkpoint eval`). */
  readonly synthetic?: SyntheticSupport;
  /** How its steps and outcomes read in human output. */
  readonly summarize?: Summarize;
  /** The story `forkpoint demo` tells over it. */
  readonly story?: ScenarioStory;
  /**
   * Prices of the models only this scenario has (a simulated provider's):
   * its runs are priced by forkpoint's table with this one over it, and the
   * user's own over both. They price no other scenario's runs.
   */
  readonly prices?: PriceTable;
}

/**
 * Declares a scenario.
 *
 * @example
 * ```ts
 * export default defineScenario({ name: 'claims-triage', builds: { baseline, patched }, defaultBuild: 'baseline', ... });
 * ```
 */
export function defineScenario(scenario: Scenario): Scenario {
  if (scenario.builds[scenario.defaultBuild] === undefined) {
    throw new Error(`scenario ${scenario.name}: default build ${scenario.defaultBuild} is not one of its builds`);
  }
  return Object.freeze(scenario);
}
