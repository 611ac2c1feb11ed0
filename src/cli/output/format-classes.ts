import type { ClassesResult, RunClass, SimilarResult } from '../../workflows/index.js';
import { countsWords, daysWords, percent, sinceWords } from '../../workflows/index.js';
import { formatUsd } from './format-cost.js';
import type { Style } from '../../text/index.js';
import { table } from '../../text/index.js';

/** What `forkpoint similar` prints: the run's class, its counts, and the runs that took its path and ended otherwise. */
export function formatSimilar(result: SimilarResult, style: Style): string[] {
  const { same, samePath, words } = result;
  const lines = [
    `${style.bold('similar')} · run ${result.runId} · ${sinceWords(result.since)} · signature ${result.signature.digest} (v${result.signature.version})`,
    `  class: ${words.trajectory} → ${words.ending}`,
    `  ${same.runs} ${same.runs === 1 ? 'run' : 'runs'} of ${result.recorded} recorded ${sinceWords(result.since)} (${percent(same.share)})${same.runs === 1 ? ': a one-off' : ''}`,
  ];
  if (same.runs > 0) {
    lines.push(
      `  by build: ${countsWords(same.byBuild)}; by outcome: ${countsWords(same.byStatus)}; days ${daysWords(same)}`,
    );
    lines.push(`  by day: ${countsWords(same.byDay)}`);
  }
  if (words.lead !== null) lines.push(`  all after ${words.lead}`);
  lines.push(
    samePath.runs === 0
      ? '  no other run took the same path to it and ended otherwise'
      : `  ${samePath.runs} more took the same path to it and ended otherwise: ${countsWords(samePath.byEnding)}`,
  );
  return lines;
}

const CLASS_COLUMNS = [
  { header: 'runs', align: 'right' as const, cell: (row: RunClass) => String(row.runs) },
  { header: 'share', align: 'right' as const, cell: (row: RunClass) => percent(row.share) },
  { header: 'ending', cell: (row: RunClass) => row.words.ending },
  { header: 'example', cell: (row: RunClass) => row.example },
  { header: 'days', cell: (row: RunClass) => daysWords(row) },
  { header: 'builds', cell: (row: RunClass) => countsWords(row.byBuild) },
  { header: 'paid USD', align: 'right' as const, cell: (row: RunClass) => formatUsd(row.paidUsd) },
  {
    header: 'fix verified',
    cell: (row: RunClass) =>
      row.verified === null ? 'no' : `${row.verified.build} (${row.verified.mode} ${row.verified.checkRunId})`,
  },
];

/** What `forkpoint classes` prints: every class of the period by size, each with its trajectory under it. */
export function formatClasses(result: ClassesResult, style: Style): string[] {
  const status = result.status === null ? '' : ` · status ${result.status}`;
  const head = `${style.bold('classes')} · ${sinceWords(result.since)}${status} · ${result.matching} of ${result.recorded} recorded runs in ${result.classes.length} ${result.classes.length === 1 ? 'class' : 'classes'}`;
  if (result.classes.length === 0) return [head];
  const rows = table(result.classes, CLASS_COLUMNS, style, { indent: '  ' });
  const [header, ...lines] = rows;
  return [
    head,
    ...(header === undefined ? [] : [header]),
    ...lines.flatMap((line, i) => {
      const kind = result.classes[i];
      return kind === undefined ? [line] : [line, style.dim(`        ${kind.words.trajectory}`)];
    }),
  ];
}
