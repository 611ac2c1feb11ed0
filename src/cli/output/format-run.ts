import type { RunView } from '../../engine/index.js';
import { pendingApprovalLines } from '../../text/index.js';
import { formatEnding } from './format-ending.js';
import { formatFindings } from './format-findings.js';
import type { Style, Summarizer } from '../../text/index.js';
import { headline, stepTable } from '../../text/index.js';

/**
 * How a run ended and what it found: the lines after its step table. A run
 * waiting for a person's approval says which call, and how to answer it.
 */
export function formatRunEnd(run: RunView, style: Style, summarizer: Summarizer): string[] {
  return [
    formatEnding(run, style, summarizer),
    ...pendingApprovalLines(run, style),
    ...formatFindings(run.findings, style),
  ];
}

/** A run with its steps, as `record` and `show` print it. A resumed run's steps say which attempt wrote them. */
export function formatRun(run: RunView, style: Style, summarizer: Summarizer): string {
  return [headline(run, style), ...stepTable(run, summarizer, style), ...formatRunEnd(run, style, summarizer)].join(
    '\n',
  );
}

/** A run in a few lines: its headline, how many steps and from where, how it ended, and its findings. */
export function formatRunBrief(run: RunView, style: Style, summarizer: Summarizer): string {
  const sources = [...new Set(run.steps.map((step) => step.provenance))].join('/');
  const effects = run.steps.filter((step) => step.sideEffect);
  const fired =
    effects.length === 0
      ? ''
      : `, ${style.red(`${effects.length} live side effect${effects.length === 1 ? '' : 's'}: ${effects.map((step) => `${step.kind}#${step.index}`).join(', ')}`)}`;
  return [
    headline(run, style),
    `  ${run.steps.length} steps${sources === '' ? '' : ` (${sources}${fired})`}; ${formatEnding(run, style, summarizer)}`,
    ...pendingApprovalLines(run, style).map((line) => `  ${line}`),
    ...formatFindings(run.findings, style).map((line) => `  ${line}`),
  ].join('\n');
}
