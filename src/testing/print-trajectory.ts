import { headline, stepTable, styleFor, summarizerOf } from '../text/index.js';
import type { Trajectory } from './trajectory-of.js';

// Plain, whatever the terminal: a failure message is also read in CI logs and JUnit files.
const PLAIN = styleFor({ isTTY: false }, {});
const MARK = '> ';

/**
 * A trajectory as `forkpoint show` prints it: the run's headline (when it is
 * a run), then its step table (every step: model, tool calls, approvals),
 * with `>` before the step at `mark` (the one a check names).
 */
export function printTrajectory(trajectory: Trajectory, mark: number | null = null): string {
  const { steps, run } = trajectory;
  if (steps.length === 0) return `${run === null ? '' : `${headline(run, PLAIN)}\n`}  (no steps)`;
  const [header = '', ...rows] = stepTable({ steps, resumes: run?.resumes ?? [] }, summarizerOf(), PLAIN);
  const lines = rows.map((row, i) =>
    // The table's rows are indented by two spaces, the width of the mark, so the columns stay in line.
    steps[i]?.step === mark && row.startsWith(' '.repeat(MARK.length)) ? `${MARK}${row.slice(MARK.length)}` : row,
  );
  return [...(run === null ? [] : [headline(run, PLAIN)]), header, ...lines].join('\n');
}
