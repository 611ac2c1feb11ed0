import type { ComparedSide, RunComparison } from '../../analysis/index.js';
import { formatEnding } from './format-run.js';
import type { Style } from './style.js';
import { oneLine } from './summarize-step.js';

const WIDTH = 46;

/** Two runs side by side, their first divergence and their outcomes. */
export function formatComparison(comparison: RunComparison, style: Style): string {
  const { a, b, firstDivergence } = comparison;
  const lines = [`${style.bold('compare')} · run ${a.runId} (${a.mode}) vs run ${b.runId} (${b.mode})`];
  lines.push(style.dim(`${'step'.padStart(4)}  ${`a: ${a.runId}`.padEnd(WIDTH)}  b: ${b.runId}`));
  for (const step of comparison.steps) {
    const marker = step.same ? ' ' : style.yellow('≠');
    lines.push(`${String(step.step).padStart(4)}${marker} ${cell(step.a).padEnd(WIDTH)}  ${cell(step.b)}`);
  }
  lines.push(
    firstDivergence === null
      ? 'first divergence: none (the runs observed the same things)'
      : `first divergence: step ${firstDivergence.step}, ${firstDivergence.kind}#${firstDivergence.index}, on the ${firstDivergence.on}`,
  );
  lines.push(`a: ${formatEnding(a, style)}`);
  lines.push(`b: ${formatEnding(b, style)}`);
  return lines.join('\n');
}

function cell(side: ComparedSide | null): string {
  if (side === null) return '-';
  const from = side.sideEffect ? 'live side-effect' : side.provenance;
  return oneLine(`${side.kind}#${side.index} ${from} ${side.requestHash.slice(0, 8)} ${side.summary}`, WIDTH);
}
