import { allowsLiveSideEffects } from '../firewall/index.js';
import type { PriceLookup } from '../pricing/index.js';
import type { ParentLink, RunRecord, StoreReader } from '../store/index.js';
import type { RunSummary } from './run-view.js';
import type { OwnerCheck } from './read-run.js';
import { summarizeRun } from './read-run.js';
import { priceTablesOf } from './run-prices.js';
import { fullTierExpired } from './expired-view.js';

/** A run and every run made from it: forks, replays, re-executions, recursively. */
export interface LineageNode {
  readonly run: RunSummary;
  /** How this run relates to the one above it in the tree. */
  readonly relation: 'fork' | 'replay' | 'reexecution' | 'root';
  readonly override: ParentLink['override'] | null;
  /** What a fork's override changed at its step, field by field; null when not recorded. */
  readonly changes: ParentLink['changes'];
  /** The steps at which the run called a side-effecting tool for real (`estimate_repair#0 (step 6)`). */
  readonly liveSideEffects: readonly string[];
  readonly children: readonly LineageNode[];
}

/** A run's lineage: the chain of runs it came from (oldest first), and the tree below it. */
export interface Lineage {
  readonly ancestors: readonly RunSummary[];
  readonly tree: LineageNode;
}

/**
 * The lineage of a run. Upwards it follows forks to their parents and replays
 * and re-executions to their sources (where the source is in this database);
 * downwards it collects everything made from the run. Each run is priced as a
 * listing prices it (see `RunSummary.cost`).
 */
export async function lineageTreeOf(
  store: StoreReader,
  run: RunRecord,
  isOwnerAlive: OwnerCheck,
  prices: PriceLookup,
  now?: Date,
): Promise<Lineage> {
  const found = await store.read((reader) => recordsOf(reader, run, now));
  // Priced once the read is over: a lookup may load a scenario.
  const tableOf = await priceTablesOf(prices, [...found.ancestors, ...recordsBelow(found.tree)]);
  const summary = (record: RunRecord): RunSummary => summarizeRun(record, isOwnerAlive, tableOf(record), now);
  return { ancestors: found.ancestors.map(summary), tree: nodeOf(found.tree, summary) };
}

/** A lineage node as read, before its run is summarized and priced. */
interface FoundNode {
  readonly record: RunRecord;
  readonly liveSideEffects: readonly string[];
  readonly children: readonly FoundNode[];
}

async function recordsOf(
  store: StoreReader,
  run: RunRecord,
  now: Date | undefined,
): Promise<{ ancestors: RunRecord[]; tree: FoundNode }> {
  const ancestors: RunRecord[] = [];
  const seen = new Set<string>([run.runId]);
  let up = originOf(run);
  while (up !== null && !seen.has(up)) {
    seen.add(up);
    const found = await store.getRun(up);
    if (found === undefined) break;
    ancestors.unshift(found);
    up = originOf(found);
  }
  const visited = new Set<string>();
  const build = async (record: RunRecord): Promise<FoundNode> => {
    visited.add(record.runId);
    const children: FoundNode[] = [];
    // One child at a time, in order: a run reachable twice is shown under the first that reaches it.
    for (const child of await store.listChildren(record.runId))
      if (!visited.has(child.runId)) children.push(await build(child));
    const expired = now !== undefined && fullTierExpired(record, now);
    return { record, liveSideEffects: expired ? [] : await liveSideEffectsOf(store, record), children };
  };
  return { ancestors, tree: await build(run) };
}

const recordsBelow = (node: FoundNode): RunRecord[] => [node.record, ...node.children.flatMap(recordsBelow)];

function nodeOf(found: FoundNode, summary: (record: RunRecord) => RunSummary): LineageNode {
  const run = summary(found.record);
  return {
    run,
    relation: relationOf(found.record),
    override: run.parent?.override ?? null,
    changes: run.parent?.changes ?? null,
    liveSideEffects: found.liveSideEffects,
    children: found.children.map((child) => nodeOf(child, summary)),
  };
}

// Only a run one of whose attempts' firewalls let side effects through can have fired one: the others'
// rows are not read.
async function liveSideEffectsOf(store: StoreReader, run: RunRecord): Promise<string[]> {
  const policies = [run.sideEffects, ...run.resumes.map((resume) => resume.sideEffects)];
  if (run.purge !== null || !policies.some((policy) => policy !== null && allowsLiveSideEffects(policy))) return [];
  return (await store.readSteps(run.runId))
    .filter((row) => row.sideEffect)
    .map((row) => `${row.kind ?? '?'}#${row.index ?? 0} (step ${row.step})`);
}

function originOf(run: RunRecord): string | null {
  return run.parent?.runId ?? run.sourceRunId;
}

function relationOf(run: RunRecord): LineageNode['relation'] {
  if (run.parent !== null) return 'fork';
  if (run.sourceRunId === null) return 'root';
  return run.mode === 'reexecution' ? 'reexecution' : 'replay';
}
