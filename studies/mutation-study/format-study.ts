import type { MutationStudy } from './run-study.js';
import type { CaughtCassettes, TierCatches } from './tier-catches.js';

const EXAMPLES = 3;

/** The study as a plain-text table, its summary line and its notes, for a terminal. */
export function formatStudy(study: MutationStudy): string {
  const of = (caught: CaughtCassettes): string => `${caught.count}/${study.cases}`;
  const header = [
    'mutant',
    'content-indifferent?',
    'caught by full',
    'caught by structural',
    'structural ending only',
    'crashed',
    'full catches e.g.',
  ];
  const cells = (name: string, indifferent: string, row: TierCatches): string[] => [
    name,
    indifferent,
    of(row.full),
    of(row.structural),
    of(row.structuralEndingOnly),
    String(row.crashes.length),
    examples(row.full),
  ];
  const table = [
    header,
    cells(`(${study.sanity.name}, unmutated)`, '-', study.sanity),
    ...study.rows.map((row) => cells(row.name, row.contentIndifferent ? 'yes' : 'no', row)),
  ];
  const widths = header.map((_, column) => Math.max(...table.map((line) => line[column]?.length ?? 0)));
  const lines = table.map((line) =>
    line
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((width) => '-'.repeat(width)).join('  '));
  const { summary } = study;
  lines.push(
    '',
    `summary: of the ${summary.caughtByFull} mutants full replay catches, structural replay catches ${summary.caughtByBoth} ` +
      `(${percent(summary.share)}); ${summary.caughtByFullAndStructuralEnding} (${percent(summary.shareCountingEndings)}) counting changed endings too. ` +
      `In cassettes: ${summary.cassettesCaughtByBoth} of ${summary.cassettesCaughtByFull} (${percent(summary.cassetteShare)}).`,
  );
  if (study.notes.length > 0) lines.push('', 'notes:', ...study.notes.map((note) => `- ${note}`));
  return lines.join('\n');
}

function examples(caught: CaughtCassettes): string {
  const shown = caught.caseIds.slice(0, EXAMPLES).join(', ');
  return caught.count > EXAMPLES ? `${shown}, ...` : shown;
}

const percent = (share: number): string => `${Math.round(share * 100)}%`;
