import type { Lineage, LineageNode, RunSummary } from '../../engine/index.js';
import { formatInput } from './format-run.js';
import type { Style } from './style.js';

/** One run on one line: id, mode, build, and how it ended. */
export function runLine(run: RunSummary, style: Style): string {
  const ending = run.status === 'completed' ? style.green(String(run.outcome?.decision ?? 'completed')) : run.status === 'running' ? run.status : style.red(run.error?.code ?? run.status);
  return `${run.runId} ${run.mode} ${run.agent.build} · ${formatInput(run.input)}${run.at === null ? '' : ` · world ${run.at}`} · ${run.status} ${ending}`;
}

/** A run's lineage: its ancestors, then the tree of runs made from it. */
export function formatLineage(lineage: Lineage, style: Style): string {
  const lines = [`${style.bold('tree')} · run ${lineage.tree.run.runId}`];
  lineage.ancestors.forEach((run, depth) => lines.push(`${'  '.repeat(depth)}${runLine(run, style)}`));
  const depth = lineage.ancestors.length;
  const walk = (node: LineageNode, indent: string, isRoot: boolean): void => {
    const relation = isRoot && depth === 0 ? '' : describeRelation(node);
    lines.push(`${indent}${isRoot ? style.bold('▶ ') : '└ '}${relation}${runLine(node.run, style)}`);
    for (const child of node.children) walk(child, `${indent}  `, false);
  };
  walk(lineage.tree, '  '.repeat(depth), true);
  return lines.join('\n');
}

function describeRelation(node: LineageNode): string {
  if (node.relation === 'fork') return `fork at step ${node.run.parent?.atStep ?? '?'} (${describeOverride(node.override)}): `;
  if (node.relation === 'root') return '';
  return `${node.relation}: `;
}

/** An override in a few words: `tool-merge {"fields":…}`, `model claude-sonnet-5`. */
export function describeOverride(override: unknown): string {
  if (typeof override !== 'object' || override === null) return 'override';
  const { kind, ...rest } = override as { kind?: string } & Record<string, unknown>;
  const detail = JSON.stringify(rest.patch ?? rest.output ?? rest.model ?? rest.file ?? rest.system ?? '');
  return `${kind ?? 'override'} ${detail.length > 60 ? `${detail.slice(0, 59)}…` : detail}`;
}
