import type { RunSummary } from '../../engine/index.js';
import { formatInput } from './format-run.js';
import type { Style } from './style.js';

/** The `runs` table, oldest first. */
export function formatRuns(runs: readonly RunSummary[], style: Style): string {
  if (runs.length === 0) return 'no runs yet; record one with `forkpoint record scenarios/claims-triage --claim CLM-91077 --at 2026-03-04`';
  const lines = [style.dim(`${'run'.padEnd(8)}  ${'mode'.padEnd(15)}  ${'build'.padEnd(22)}  ${'input'.padEnd(18)}  ${'world'.padEnd(10)}  ${'steps'.padStart(5)}  status`)];
  for (const run of runs) {
    const status = run.status === 'completed' ? style.green(run.status) : run.status === 'running' ? run.status : style.red(run.status);
    lines.push(
      `${run.runId}  ${run.mode.padEnd(15)}  ${`${run.agent.name}/${run.agent.build}`.padEnd(22)}  ${formatInput(run.input).padEnd(18)}  ${(run.at ?? '-').padEnd(10)}  ${String(run.stepCount).padStart(5)}  ${status}`,
    );
  }
  return lines.join('\n');
}
