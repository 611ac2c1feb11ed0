import type { Lineage, LineageNode, RunSummary } from '../../engine/index.js';
import { describeOverride } from '../../fork/index.js';
import { describeCheckpointMigration } from '../../vocabulary/index.js';
import type { Style, Summarizer } from '../../text/index.js';
import { formatFirewall, formatInput } from '../../text/index.js';

/** The summarizer of each run, by the scenario it came from. */
export type SummarizerOfRun = (run: RunSummary) => Summarizer;

/**
 * One run on one line: id, mode, build, its firewall and resumes, and how it
 * ended (its verdict, in a word); a run stopped at rest before a call that
 * needs approval says it waits for a person (`show` names the call).
 */
export function runLine(run: RunSummary, style: Style, summarizer: Summarizer): string {
  const ending =
    run.status === 'completed'
      ? style.green(summarizer.verdict(run.outcome))
      : run.status === 'running'
        ? run.status
        : run.status === 'awaiting-approval'
          ? style.yellow("✋ waits for a person's answer")
          : style.red(run.error?.code ?? run.status);
  const firewall = run.sideEffects === null ? '' : ` · ${formatFirewall(run.sideEffects, style)}`;
  const resumed = run.resumes.length === 0 ? '' : ` · ${style.yellow(`resumed ×${run.resumes.length}`)}`;
  return `${run.runId} ${run.mode} ${run.agent.build} · ${formatInput(run.input)}${run.worldAt === null ? '' : ` · world ${run.worldAt}`}${firewall}${resumed} · ${run.status} ${ending}`;
}

/** A run's lineage: its ancestors, then the tree of runs made from it. */
export function formatLineage(lineage: Lineage, style: Style, summarizerOf: SummarizerOfRun): string {
  const lines = [`${style.bold('tree')} · run ${lineage.tree.run.runId}`];
  lineage.ancestors.forEach((run, depth) =>
    lines.push(`${'  '.repeat(depth)}${runLine(run, style, summarizerOf(run))}`),
  );
  const depth = lineage.ancestors.length;
  const walk = (node: LineageNode, indent: string, isRoot: boolean): void => {
    const relation = isRoot && depth === 0 ? '' : describeRelation(node);
    const fired =
      node.liveSideEffects.length === 0
        ? ''
        : ` · ${style.red(`live side effects: ${node.liveSideEffects.join(', ')}`)}`;
    lines.push(
      `${indent}${isRoot ? style.bold('▶ ') : '└ '}${relation}${runLine(node.run, style, summarizerOf(node.run))}${fired}`,
    );
    for (const child of node.children) walk(child, `${indent}  `, false);
  };
  walk(lineage.tree, '  '.repeat(depth), true);
  return lines.join('\n');
}

// A fork that continued a migrated checkpoint says so where its change is named.
const migrated = (node: LineageNode): string => {
  const migration = node.run.parent?.migration;
  return migration === undefined ? '' : `; checkpoint migrated: ${describeCheckpointMigration(migration)}`;
};

function describeRelation(node: LineageNode): string {
  if (node.relation === 'fork')
    return `fork at step ${node.run.parent?.atStep ?? '?'} (${describeOverride(node.override, node.changes)}${migrated(node)}): `;
  if (node.relation === 'root') return '';
  return `${node.relation}: `;
}
