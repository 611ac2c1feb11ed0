import type { RunPage, RunSummary } from '../../engine/index.js';
import { formatInput } from './format-run.js';
import type { Style } from './style.js';

/**
 * The `runs` table: one page, newest first. A fork, replay or re-execution
 * names the run it came from in the `from` column (a fork with the step it
 * branched at), since its origin is often on another page. `nextPage` is the
 * command that lists the page after this one.
 */
export function formatRuns(page: RunPage, style: Style, nextPage: string | null): string {
  const { runs } = page;
  if (runs.length === 0)
    return 'no runs yet; record one with `forkpoint record scenarios/claims-triage --claim CLM-91077 --at 2026-03-04`';
  const idWidth = Math.max(3, ...runs.map((run) => run.runId.length));
  const fromWidth = Math.max(4, ...runs.map((run) => origin(run).length));
  const lines = [
    style.dim(
      `${'run'.padEnd(idWidth)}  ${'mode'.padEnd(17)}  ${'build'.padEnd(22)}  ${'input'.padEnd(18)}  ${'world'.padEnd(10)}  ${'steps'.padStart(5)}  ${'from'.padEnd(fromWidth)}  status`,
    ),
  ];
  for (const run of runs) {
    const status =
      run.status === 'completed'
        ? style.green(run.status)
        : run.status === 'running'
          ? run.status
          : style.red(run.status);
    const held =
      run.retention.purge === null
        ? ''
        : style.dim(
            run.retention.purge.reason === 'expired'
              ? '  (full tier expired: shape only)'
              : '  (shape only: not captured)',
          );
    lines.push(
      `${run.runId.padEnd(idWidth)}  ${run.mode.padEnd(17)}  ${`${run.agent.name}/${run.agent.build}`.padEnd(22)}  ${formatInput(run.input).padEnd(18)}  ${(run.at ?? '-').padEnd(10)}  ${String(run.stepCount).padStart(5)}  ${origin(run).padEnd(fromWidth)}  ${status}${held}`,
    );
  }
  if (nextPage !== null) lines.push(style.dim(`${runs.length} runs shown, newest first; older ones: ${nextPage}`));
  return lines.join('\n');
}

// Where a run came from: `parent@step` for a fork, the source run for a replay or re-execution.
function origin(run: RunSummary): string {
  if (run.parent !== null) return `${run.parent.runId}@${run.parent.atStep}`;
  return run.source ?? '-';
}
