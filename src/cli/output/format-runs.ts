import type { RunSummary } from '../../engine/index.js';
import { formatInput } from './format-run.js';
import type { Style } from './style.js';

/**
 * The `runs` table, oldest first, with every fork, replay and re-execution
 * indented under the run it was made from.
 */
export function formatRuns(runs: readonly RunSummary[], style: Style): string {
  if (runs.length === 0) return 'no runs yet; record one with `forkpoint record scenarios/claims-triage --claim CLM-91077 --at 2026-03-04`';
  const rows = nested(runs);
  const idWidth = Math.max(...rows.map(({ depth }) => 8 + 2 * depth + (depth > 0 ? 2 : 0)));
  const lines = [
    style.dim(`${'run'.padEnd(idWidth)}  ${'mode'.padEnd(17)}  ${'build'.padEnd(22)}  ${'input'.padEnd(18)}  ${'world'.padEnd(10)}  ${'steps'.padStart(5)}  status`),
  ];
  for (const { run, depth } of rows) {
    const status = run.status === 'completed' ? style.green(run.status) : run.status === 'running' ? run.status : style.red(run.status);
    const id = `${'  '.repeat(depth)}${depth > 0 ? '└ ' : ''}${run.runId}`;
    const held = run.retention.purge === null ? '' : style.dim(run.retention.purge.reason === 'expired' ? '  (full tier expired: shape only)' : '  (shape only: not captured)');
    lines.push(
      `${id.padEnd(idWidth)}  ${run.mode.padEnd(17)}  ${`${run.agent.name}/${run.agent.build}`.padEnd(22)}  ${formatInput(run.input).padEnd(18)}  ${(run.at ?? '-').padEnd(10)}  ${String(run.stepCount).padStart(5)}  ${status}${held}`,
    );
  }
  return lines.join('\n');
}

/** Runs in tree order: each run, then the runs made from it, depth first. */
function nested(runs: readonly RunSummary[]): Array<{ run: RunSummary; depth: number }> {
  const known = new Set(runs.map((run) => run.runId));
  const originOf = (run: RunSummary): string | null => {
    const origin = run.parent?.runId ?? run.source;
    return origin !== null && known.has(origin) ? origin : null;
  };
  const children = new Map<string, RunSummary[]>();
  for (const run of runs) {
    const origin = originOf(run);
    if (origin !== null) children.set(origin, [...(children.get(origin) ?? []), run]);
  }
  const out: Array<{ run: RunSummary; depth: number }> = [];
  const visit = (run: RunSummary, depth: number): void => {
    out.push({ run, depth });
    for (const child of children.get(run.runId) ?? []) visit(child, depth + 1);
  };
  for (const run of runs) if (originOf(run) === null) visit(run, 0);
  return out;
}
