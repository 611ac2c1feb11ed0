import type { RunSummary, RunView } from '../../engine/index.js';
import type { JsonObject } from '../../json/index.js';
import type { Scenario } from '../../scenario/index.js';
import type { Style } from './style.js';
import { oneLine, summarizeStep } from './summarize-step.js';

/** `claimId=CLM-91077`: a run's input in a few characters. */
export function formatInput(input: JsonObject): string {
  return Object.entries(input)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
}

/**
 * The first line of every run's output: it names the mode first, so that a
 * replay, a re-execution and a fork can never be read as one another.
 */
export function headline(run: RunSummary | RunView, style: Style): string {
  const parts = [
    style.bold(run.mode),
    `run ${run.runId}`,
    `${run.agent.name}/${run.agent.build} (code ${run.agent.codeHash})`,
    formatInput(run.input),
  ];
  if (run.at !== null) parts.push(`world ${run.at}`);
  if (run.seed !== null) parts.push(`seed ${run.seed}`);
  return parts.join(' · ');
}

/** How a run ended, in one line. */
export function formatEnding(run: RunSummary | RunView, style: Style): string {
  switch (run.status) {
    case 'completed':
      return `${style.green('completed')}: ${formatOutcome(run.outcome)}`;
    case 'failed':
    case 'diverged':
      return run.error === null
        ? style.red(run.status)
        : `${style.red(run.status)} at step ${run.error.step}: ${run.error.code}: ${run.error.message}`;
    case 'running':
      return style.yellow('running');
    case 'interrupted':
      return `${style.yellow('interrupted')}: the process recording it stopped after step ${'stepCount' in run ? run.stepCount : run.steps.length}`;
  }
}

/** An outcome in one line: `approve, payout 1795: reason`, or compact JSON. */
export function formatOutcome(outcome: JsonObject | null): string {
  if (outcome === null) return 'no outcome';
  const { decision, payout, reason } = outcome;
  if (typeof decision === 'string') {
    const pay = typeof payout === 'number' ? `, payout ${payout}` : '';
    return oneLine(`${decision}${pay}${typeof reason === 'string' ? `: ${reason}` : ''}`, 140);
  }
  return oneLine(JSON.stringify(outcome), 140);
}

/** A run with its steps, as `record` and `show` print it. */
export function formatRun(run: RunView, style: Style, scenario?: Scenario): string {
  const lines = [headline(run, style)];
  if (run.parent !== null) lines.push(`forked from run ${run.parent.runId} at step ${run.parent.atStep}`);
  if (run.source !== null) lines.push(`source run ${run.source}`);
  lines.push(style.dim(`${'step'.padStart(6)}  ${'call'.padEnd(18)}  ${'from'.padEnd(9)}  ${'request'.padEnd(16)}  response`));
  for (const step of run.steps) {
    lines.push(
      `${String(step.step).padStart(6)}  ${`${step.kind}#${step.index}`.padEnd(18)}  ${step.provenance.padEnd(9)}  ${step.requestHash}  ${summarizeStep(step, scenario)}`,
    );
  }
  lines.push(formatEnding(run, style));
  return lines.join('\n');
}
