import type { RestoredCheckpoint } from '../../checkpoint/index.js';
import type { RunSummary } from '../../engine/index.js';
import type { Style, Summarizer } from '../../text/index.js';
import { headline, oneLine, table } from '../../text/index.js';

/** The checkpoint after one step, as `show --step` prints it. */
export function formatCheckpoint(
  run: RunSummary,
  step: number,
  checkpoint: RestoredCheckpoint,
  style: Style,
  summarizer: Summarizer,
): string {
  const { context } = checkpoint;
  const calls = Object.entries(context.calls)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  const last = context.messages.at(-1);
  const pending = context.pending
    .slice(context.results.length)
    .map((call) => `${call.name} ${JSON.stringify(call.input)}`);
  const fields: [string, string][] = [
    ['steps taken', `${context.step}${calls === '' ? '' : ` (${calls})`}`],
    [
      'messages',
      `${context.messages.length}${last === undefined ? '' : ` (last: ${last.role} ${oneLine(JSON.stringify(last.content), 70)})`}`,
    ],
    [
      'awaiting',
      pending.length > 0
        ? oneLine(pending.join('; '), 80)
        : checkpoint.value === 'awaitingModel'
          ? `model ${context.model}`
          : 'nothing',
    ],
    ['outcome', context.outcome === null ? '-' : summarizer.outcome(context.outcome)],
    ['error', context.error === null ? '-' : `${context.error.code}: ${context.error.message}`],
  ];
  return [
    headline(run, style),
    `checkpoint after step ${step}: ${style.bold(checkpoint.value)}`,
    ...table(
      fields,
      [
        { header: '', cell: ([name]) => name },
        { header: '', cell: ([, value]) => value },
      ],
      style,
      { indent: '  ', header: false },
    ),
  ].join('\n');
}
