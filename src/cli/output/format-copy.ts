import type { CopiedRun, CopyReport } from '../../store/index.js';
import type { Column, Style } from '../../text/index.js';
import { table } from '../../text/index.js';

const plural = (count: number, one: string): string =>
  `${count.toLocaleString('en-US')} ${one}${count === 1 ? '' : 's'}`;

const COLUMNS: readonly Column<CopiedRun>[] = [
  { header: 'action', cell: (run) => run.action },
  { header: 'run', cell: (run) => run.runId },
  { header: 'mode', cell: (run) => run.mode },
  { header: 'status', cell: (run) => run.status },
  {
    header: 'what',
    cell: (run) =>
      run.action === 'skipped'
        ? 'the target holds it already, the same'
        : run.purged
          ? 'summary and structural tier (its full tier was purged)'
          : `${plural(run.rows, 'row')}, ${plural(run.blobs, 'blob')}`,
  },
];

/** `copy`'s report: the mode and both stores first, a line per run, then the counts. */
export function formatCopy(report: CopyReport, from: string, to: string, style: Style): string {
  const held = report.skipped === 0 ? '' : `; skipped ${plural(report.skipped, 'run')} the target holds already`;
  const summary =
    report.runs.length === 0
      ? 'nothing to copy: the source holds no runs'
      : report.copied === 0
        ? `nothing to copy: the target holds ${report.skipped === 1 ? 'it' : `all ${report.skipped}`} already`
        : `copied ${plural(report.copied, 'run')} (${plural(report.rows, 'row')}, ${plural(report.blobs, 'blob')})${held}`;
  return [
    `${style.bold('copy')} · ${plural(report.runs.length, 'run')} from ${from} to ${to}`,
    ...(report.runs.length === 0 ? [] : table(report.runs, COLUMNS, style, { indent: '  ' })),
    summary,
  ].join('\n');
}
