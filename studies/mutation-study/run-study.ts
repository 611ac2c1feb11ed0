import type { AgentBuild } from '../../src/agent/index.js';
import { createEngine } from '../../src/engine/index.js';
import { loadSyntheticCases } from '../../src/scenario/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { baseline, claimsSynthetic } from '../../scenarios/claims-triage/index.js';
import type { Mutant } from './mutant.js';
import { INEXPRESSIBLE_NOTE, MUTANTS } from './mutants.js';
import { recordCases } from './recorded-cases.js';
import type { StudySummary } from './study-summary.js';
import { summarize } from './study-summary.js';
import { syntheticCasesDir } from './synthetic-dir.js';
import { studyNotes } from './study-notes.js';
import type { TierCatches } from './tier-catches.js';
import { catchesOf } from './tier-catches.js';
import { withoutUnusable } from './unusable-cassettes.js';

/** Options of {@link runMutationStudy}; every one has a default. */
export interface MutationStudyOptions {
  /** The synthetic cases (default: `scenarios/claims-triage/synthetic`). */
  readonly directory?: string;
  /** The bugs to plant (default: {@link MUTANTS}). */
  readonly mutants?: readonly Mutant[];
  /** The build recorded and mutated (default: claims-triage `baseline`). */
  readonly build?: AgentBuild;
  /** The seed every case is recorded with (default 1). */
  readonly seed?: number;
  /** Told the name of each build once its replays are done. */
  readonly onBuild?: (name: string) => void;
}

/**
 * One mutant's row: the bug, and what each replay tier caught of it, leaving
 * out the cassettes the unmutated build already fails in that tier.
 */
export interface MutantRow extends TierCatches {
  readonly name: string;
  readonly description: string;
  readonly contentIndifferent: boolean;
}

/** The study's result: the unmutated build's sanity row, one row per mutant, and the summary. */
export interface MutationStudy {
  /** The synthetic cases recorded: the denominator of every count. */
  readonly cases: number;
  /** The unmutated build replayed over its own recordings: it should be caught by neither tier. */
  readonly sanity: TierCatches & { readonly name: string };
  readonly rows: readonly MutantRow[];
  readonly summary: StudySummary;
  /** What a reader of the table must know: what could not be planted, cassettes left out, crashed replays. */
  readonly notes: readonly string[];
}

/**
 * The mutation study of the chapter's claim that structural cassettes catch
 * most of what full cassettes catch: records every synthetic claims case with
 * the build on an in-memory store, then replays each case's full cassette
 * strictly and its structural cassette structurally, first with the build
 * itself, then with each mutant, and counts the cassettes each tier caught.
 */
export async function runMutationStudy(options: MutationStudyOptions = {}): Promise<MutationStudy> {
  const build = options.build ?? baseline;
  const mutants = options.mutants ?? MUTANTS;
  const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
  try {
    const cases = loadSyntheticCases(options.directory ?? syntheticCasesDir(), claimsSynthetic);
    const recorded = await recordCases({
      engine,
      agent: build,
      cases,
      support: claimsSynthetic,
      seed: options.seed ?? 1,
    });
    const sanity = { name: build.build, ...(await catchesOf(engine, build, recorded)) };
    options.onBuild?.(build.build);
    const rows: MutantRow[] = [];
    for (const mutant of mutants) {
      const catches = withoutUnusable(await catchesOf(engine, mutant.mutate(build), recorded), sanity);
      rows.push({
        name: mutant.name,
        description: mutant.description,
        contentIndifferent: mutant.contentIndifferent,
        ...catches,
      });
      options.onBuild?.(mutant.name);
    }
    return {
      cases: recorded.length,
      sanity,
      rows,
      summary: summarize(rows),
      notes: [INEXPRESSIBLE_NOTE, ...studyNotes(sanity, rows)],
    };
  } finally {
    await engine.store.close();
  }
}
