import type { AgentBuild } from '../../src/agent/index.js';

/** A harness bug planted in a copy of a build, to see which replay tier notices it. */
export interface Mutant {
  /** The bug's name; the mutated build is called `mutant-<name>`. */
  readonly name: string;
  /** The bug in one line. */
  readonly description: string;
  /**
   * True when the bug depends only on the shape of the data (message
   * structure, counts, number classes and signs, string lengths), so that a
   * structural cassette should reproduce it; false when it depends on content.
   */
  readonly contentIndifferent: boolean;
  /** The build with the bug planted in it. */
  readonly mutate: (build: AgentBuild) => AgentBuild;
}
