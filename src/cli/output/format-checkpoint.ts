import type { RestoredCheckpoint } from '../../checkpoint/index.js';
import type { RunSummary } from '../../engine/index.js';
import { formatOutcome, headline } from './format-run.js';
import type { Style } from './style.js';
import { oneLine } from './summarize-step.js';

/** The checkpoint after one step, as `show --step` prints it. */
export function formatCheckpoint(run: RunSummary, step: number, checkpoint: RestoredCheckpoint, style: Style): string {
  const { context } = checkpoint;
  const calls = Object.entries(context.calls)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  const last = context.messages.at(-1);
  const pending = context.pending
    .slice(context.results.length)
    .map((call) => `${call.name} ${JSON.stringify(call.input)}`);
  return [
    headline(run, style),
    `checkpoint after step ${step}: ${style.bold(checkpoint.value)}`,
    `  steps taken     ${context.step}${calls === '' ? '' : ` (${calls})`}`,
    `  messages        ${context.messages.length}${last === undefined ? '' : ` (last: ${last.role} ${oneLine(JSON.stringify(last.content), 70)})`}`,
    `  awaiting        ${pending.length > 0 ? oneLine(pending.join('; '), 80) : checkpoint.value === 'awaitingModel' ? `model ${context.model}` : 'nothing'}`,
    `  outcome         ${context.outcome === null ? '-' : formatOutcome(context.outcome)}`,
    `  error           ${context.error === null ? '-' : `${context.error.code}: ${context.error.message}`}`,
  ].join('\n');
}
