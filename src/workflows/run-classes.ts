import type { Engine } from '../engine/index.js';
import type { FailureSignature } from '../signature/index.js';
import type { SignedRun } from '../store/index.js';
import type { GroupCounts, VerifiedFix } from './signature-classes.js';
import { fixChecksBySource, groupCounts, paidUsdOf, recordedRuns, verifiedFixOf } from './signature-classes.js';
import { endingWords, leadWords, trajectoryWords } from './signature-words.js';

/** Which classes `runClasses` lists: of the runs recorded from `since` (ISO) on, optionally of one ending status. */
export interface ClassesQuery {
  readonly since?: string;
  /** Only runs recorded strictly before this ISO timestamp. */
  readonly until?: string;
  /** Only the classes of runs that ended so (`failed`, `completed`, ...). */
  readonly status?: string;
}

/** One class of runs: the runs whose failure signatures are equal. */
export interface RunClass extends GroupCounts {
  readonly digest: string;
  /** Its share of the period's recorded runs. */
  readonly share: number;
  readonly signature: FailureSignature;
  readonly words: { readonly trajectory: string; readonly ending: string; readonly lead: string | null };
  /** Its first run, to look at. */
  readonly example: string;
  /** What the live calls of its runs cost, in USD; null when a model of theirs has no price. */
  readonly paidUsd: number | null;
  /** A fix checked against one of its runs (see `verifiedFixOf`), or null. */
  readonly verified: VerifiedFix | null;
}

/** The classes of a period, as `forkpoint classes --json` prints them. */
export interface ClassesResult {
  readonly mode: 'classes';
  readonly since: string | null;
  readonly status: string | null;
  /** How many runs were recorded in the period, and how many of them have the status asked for. */
  readonly recorded: number;
  readonly matching: number;
  /** Largest first; classes of one size by their first run. */
  readonly classes: readonly RunClass[];
}

/**
 * Every class of the runs recorded in a period, by size: what shape analysis
 * over many runs tells on-call first, whether a failure is one run or a class
 * of them. Each with an example run, what its live calls cost and whether a
 * fix was verified against it. Reads no payload: it answers the same after
 * the runs' full tiers expired.
 *
 * @example
 * ```ts
 * const { classes } = await runClasses(engine, { since: '2026-03-01T00:00:00.000Z', status: 'failed' });
 * for (const kind of classes) console.log(kind.runs, kind.words.ending, kind.example);
 * ```
 */
export async function runClasses(engine: Engine, query: ClassesQuery = {}): Promise<ClassesResult> {
  // Fixes are checked after the runs they check: looked for from the period's start on, past its end.
  const signed = await engine.store.listSignedRuns(query.since === undefined ? {} : { since: query.since });
  const period = recordedRuns(signed).filter((run) => query.until === undefined || run.createdAt < query.until);
  const matching = query.status === undefined ? period : period.filter((run) => run.status === query.status);
  const checks = fixChecksBySource(signed);
  const groups = new Map<string, SignedRun[]>();
  for (const run of matching) {
    const group = groups.get(run.signature.digest);
    if (group === undefined) groups.set(run.signature.digest, [run]);
    else group.push(run);
  }
  const classes: RunClass[] = [];
  for (const [digest, members] of groups) {
    const [first] = members;
    if (first === undefined) continue;
    const { signature } = first;
    classes.push({
      digest,
      ...groupCounts(members),
      share: period.length === 0 ? 0 : members.length / period.length,
      signature,
      words: { trajectory: trajectoryWords(signature), ending: endingWords(signature), lead: leadWords(signature) },
      example: first.runId,
      paidUsd: await paidUsdOf(engine, members),
      verified: verifiedFixOf(members, checks),
    });
  }
  // Stable: classes of one size keep the order of their first runs.
  classes.sort((a, b) => b.runs - a.runs);
  return {
    mode: 'classes',
    since: query.since ?? null,
    status: query.status ?? null,
    recorded: period.length,
    matching: matching.length,
    classes,
  };
}
