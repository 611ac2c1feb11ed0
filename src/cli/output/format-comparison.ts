import type { ComparedSide, ComparedStep, RunComparison } from '../../analysis/index.js';
import { formatEnding } from './format-ending.js';
import type { Style } from './style.js';
import type { Summarizer } from './summarizer.js';
import type { Column } from './table.js';
import { table } from './table.js';

// Side by side, each run's column holds at most this much of a step.
const WIDTH = 46;

/** Two runs side by side, their first divergence and their outcomes. */
export function formatComparison(comparison: RunComparison, style: Style, summarizer: Summarizer): string {
  const { a, b, firstDivergence } = comparison;
  const columns: Column<ComparedStep>[] = [
    { header: 'step', align: 'right', cell: (step) => String(step.step) },
    // The mark of a step where the runs differ, right after its number.
    { header: '', separator: '', minWidth: 1, cell: (step) => (step.same ? ' ' : { text: '≠', paint: style.yellow }) },
    { header: `a: ${a.runId}`, separator: ' ', maxWidth: WIDTH, cell: (step) => cell(step.a) },
    { header: `b: ${b.runId}`, maxWidth: WIDTH, cell: (step) => cell(step.b) },
  ];
  return [
    `${style.bold('compare')} · run ${a.runId} (${a.mode}) vs run ${b.runId} (${b.mode})`,
    ...table(comparison.steps, columns, style),
    firstDivergence === null
      ? 'first divergence: none (the runs observed the same things)'
      : `first divergence: step ${firstDivergence.step}, ${firstDivergence.kind}#${firstDivergence.index}, on the ${firstDivergence.on}`,
    `a: ${formatEnding(a, style, summarizer)}`,
    `b: ${formatEnding(b, style, summarizer)}`,
  ].join('\n');
}

function cell(side: ComparedSide | null): string {
  if (side === null) return '-';
  const from = side.sideEffect ? 'live side-effect' : side.provenance;
  return `${side.kind}#${side.index} ${from} ${side.requestHash.slice(0, 8)} ${side.summary}`;
}
