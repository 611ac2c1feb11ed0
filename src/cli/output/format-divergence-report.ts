import type { DivergenceSource, FieldChange } from '../../analysis/index.js';
import type { DivergenceReport, ReportedReexecution } from '../../workflows/index.js';
import { formatInput } from './format-run.js';
import type { Style } from './style.js';

const MEANING: Readonly<Record<DivergenceSource, string>> = {
  'tool-response': 'same request; a tool answered differently (the world moved)',
  'model-response': 'same request; the model answered differently (sampling)',
  'volatile-request': 'the request differs only in per-call bytes (a timestamp, an id)',
  code: "the request differs: the build's code changed",
  simulated: "same request; a side-effecting tool's simulator answered, not the world",
  blocked: 'stopped by the side-effect firewall while still on the recording',
  none: 'followed the recording to the end',
};

/**
 * The first-divergence table as text: per source its count and share, the
 * total against runs × repeats minus the skipped, then the re-executions
 * behind each row (where each left, and the first fields that differ).
 */
export function formatDivergenceReport(report: DivergenceReport, build: string | undefined, style: Style): string {
  const skippedCount = report.skipped.reduce((sum, run) => sum + run.reexecutions, 0);
  const lines = [
    `${style.bold('divergence-report')} · mode ${report.mode} · ${report.runs} recorded runs × ${report.repeats} against the world of ${report.at} · ${
      build === undefined ? "each run's own build" : `build ${build}`
    }`,
    style.dim(`  ${'first divergence'.padEnd(18)} ${'count'.padStart(5)}  ${'share'.padStart(6)}  what happened`),
    ...report.rows.map(
      (row) =>
        `  ${row.source.padEnd(18)} ${String(row.count).padStart(5)}  ${percent(row.count, report.total).padStart(6)}  ${MEANING[row.source]}`,
    ),
    `  ${'total'.padEnd(18)} ${String(report.total).padStart(5)}  ${percent(report.total, report.total).padStart(6)}  = ${report.runs} runs × ${report.repeats} − ${skippedCount} skipped`,
  ];
  for (const row of report.rows) {
    if (row.count === 0) continue;
    lines.push('', style.bold(`${row.source} (${row.count})`));
    for (const entry of row.entries) lines.push(`  ${formatEntry(entry)}`);
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

function formatEntry(entry: ReportedReexecution): string {
  const who = `${entry.recordedRunId} ${formatInput(entry.input)} #${entry.repeat} -> ${entry.runId}`;
  if (entry.source === 'none') return `${who}  ${entry.status}`;
  if (entry.source === 'blocked') return `${who}  ${entry.reason}`;
  const where = `step ${entry.step} ${entry.call ?? ''}`;
  return `${who}  ${where.padEnd(24)} ${firstChange(entry.diff)}`;
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
