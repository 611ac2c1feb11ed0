import { DIVERGENCE_MEANINGS, stoppedOnRecording } from '../../analysis/index.js';
import type { FieldChange } from '../../vocabulary/index.js';
import type { DivergenceReport, ReportedReexecution } from '../../workflows/index.js';
import type { Style } from '../../text/index.js';
import { formatInput, table } from '../../text/index.js';

interface Row {
  readonly source: string;
  readonly count: number;
  readonly meaning: string;
}

/**
 * The first-divergence table as text: per source its count and share, the
 * total against runs × repeats minus the skipped, then the re-executions
 * behind each row (where each left, and the first fields that differ).
 */
export function formatDivergenceReport(
  report: DivergenceReport,
  at: string,
  build: string | undefined,
  style: Style,
): string {
  const skippedCount = report.skipped.reduce((sum, run) => sum + run.reexecutions, 0);
  const rows: Row[] = [
    ...report.rows.map((row) => ({ source: row.source, count: row.count, meaning: DIVERGENCE_MEANINGS[row.source] })),
    {
      source: 'total',
      count: report.total,
      meaning: `= ${report.runs} runs × ${report.repeats} − ${skippedCount} skipped`,
    },
  ];
  const lines = [
    `${style.bold('divergence-report')} · mode ${report.mode} · ${report.runs} recorded runs × ${report.repeats} against the world of ${at} · ${
      build === undefined ? "each run's own build" : `build ${build}`
    }`,
    ...table(
      rows,
      [
        { header: 'first divergence', cell: (row) => row.source },
        { header: 'count', align: 'right', cell: (row) => String(row.count) },
        { header: 'share', align: 'right', cell: (row) => percent(row.count, report.total) },
        { header: 'what happened', cell: (row) => row.meaning },
      ],
      style,
      { indent: '  ' },
    ),
  ];
  for (const row of report.rows) {
    if (row.count === 0) continue;
    lines.push('', style.bold(`${row.source} (${row.count})`));
    lines.push(
      ...table(
        row.entries,
        [
          {
            header: '',
            cell: (entry) => `${entry.recordedRunId} ${formatInput(entry.input)} #${entry.repeat} -> ${entry.runId}`,
          },
          { header: '', cell: where },
          {
            header: '',
            cell: (entry) =>
              entry.source === 'none' || stoppedOnRecording(entry.source) ? '' : firstChange(entry.diff),
          },
        ],
        style,
        { indent: '  ', header: false },
      ).map((line) => line.trimEnd()),
    );
  }
  if (report.skipped.length > 0) {
    lines.push(
      '',
      style.bold(`skipped (${plural(report.skipped.length, 'run')}, ${plural(skippedCount, 're-execution')})`),
    );
    for (const run of report.skipped) lines.push(`  ${run.runId}  ${run.code}: ${run.reason}`);
  }
  return lines.join('\n');
}

// Where a re-execution left its recording; a run that never left it says how it ended instead.
function where(entry: ReportedReexecution): string {
  if (entry.source === 'none') return entry.status;
  if (stoppedOnRecording(entry.source)) return entry.reason;
  return `step ${entry.step} ${entry.call ?? ''}`;
}

function firstChange(diff: readonly FieldChange[]): string {
  const [first] = diff;
  if (first === undefined) return '';
  const more = diff.length > 1 ? ` (+${diff.length - 1} more)` : '';
  return `${first.path}: ${first.before} -> ${first.after}${more}`;
}

function percent(count: number, total: number): string {
  return total === 0 ? '-' : `${((100 * count) / total).toFixed(1)}%`;
}

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
