import type { RunPage, RunSummary } from '../../engine/index.js';
import { formatUsd } from './format-cost.js';
import type { Column, Style } from '../../text/index.js';
import { formatInput, table } from '../../text/index.js';

/**
 * The `runs` table: one page, newest first. A fork, replay or re-execution
 * names the run it came from in the `from` column (a fork with the step it
 * branched at), since its origin is often on another page. The `USD` column
 * is what the run paid for its live model steps (a replay's recorded ones
 * cost it nothing; a fork's inherited ones are its parent's), `?` where a
 * model has no price, `-` where the run stored no totals (it is running, or
 * ended before forkpoint kept them). `nextPage` is the command that lists the
 * page after this one.
 */
export function formatRuns(page: RunPage, style: Style, nextPage: string | null): string {
  const { runs } = page;
  if (runs.length === 0) return 'no runs yet; `forkpoint record --help` shows how to record one';
  const columns: Column<RunSummary>[] = [
    { header: 'run', cell: (run) => run.runId },
    { header: 'mode', cell: (run) => run.mode },
    { header: 'build', cell: (run) => `${run.agent.name}/${run.agent.build}` },
    { header: 'input', cell: (run) => formatInput(run.input) },
    { header: 'world', cell: (run) => run.worldAt ?? '-' },
    { header: 'steps', align: 'right', cell: (run) => String(run.stepCount) },
    { header: 'from', cell: origin },
    { header: 'USD', align: 'right', cell: (run) => (run.cost === null ? '-' : formatUsd(run.cost.paid.usd)) },
    { header: 'status', cell: (run) => status(run, style) },
  ];
  const lines = table(runs, columns, style);
  if (nextPage !== null) lines.push(style.dim(`${runs.length} runs shown, newest first; older ones: ${nextPage}`));
  return lines.join('\n');
}

// The status in its colour, and a note on a run that keeps only its shape.
function status(run: RunSummary, style: Style): { text: string; paint: (text: string) => string } {
  const colour =
    run.status === 'completed'
      ? style.green
      : run.status === 'running'
        ? plain
        : run.status === 'awaiting-approval'
          ? style.yellow
          : style.red;
  const held =
    run.retention.purge === null
      ? ''
      : run.retention.purge.reason === 'expired'
        ? '  (full tier expired: shape only)'
        : '  (shape only: not captured)';
  // The last column is never cut or padded, so the note can be painted apart from the status.
  return { text: `${run.status}${held}`, paint: () => `${colour(run.status)}${held === '' ? '' : style.dim(held)}` };
}

const plain = (text: string): string => text;

// Where a run came from: `parent@step` for a fork, the source run for a replay or re-execution.
function origin(run: RunSummary): string {
  if (run.parent !== null) return `${run.parent.runId}@${run.parent.atStep}`;
  return run.sourceRunId ?? '-';
}
