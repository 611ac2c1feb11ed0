import type { ClassesResult, GroupCounts, RunClass, SimilarResult } from '../../workflows/index.js';
import { formatUsd } from './format-cost.js';
import type { Style } from './style.js';
import { table } from './table.js';

const percent = (share: number): string => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
const sinceWords = (since: string | null): string => (since === null ? 'in the store' : `since ${since.slice(0, 10)}`);

// `baseline 14` or `baseline 12 · patched 2`, largest first.
const countsWords = (counts: Readonly<Record<string, number>>): string =>
  Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([key, count]) => `${key} ${count}`)
    .join(' · ');

// `03-01..03-04 (4 days)`: a class's days, as a range.
const daysWords = (counts: GroupCounts): string => {
  const days = Object.keys(counts.byDay).sort();
  const first = days[0];
  const last = days.at(-1);
  if (first === undefined || last === undefined) return 'no day';
  return first === last ? first : `${first}..${last} (${days.length} days)`;
};

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
