import type { RunSummary, RunView } from '../../engine/index.js';
import type { JsonObject } from '../../json/index.js';
import type { RunErrorRecord, RunStatus } from '../../store/index.js';
import type { Scenario } from '../../scenario/index.js';
import type { Style } from './style.js';
import { formatFindings } from './format-findings.js';
import { oneLine, summarizeStep } from './summarize-step.js';

/** `claimId=CLM-91077`: a run's input in a few characters. */
export function formatInput(input: JsonObject): string {
  return Object.entries(input)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
}

/**
 * The first line of every run's output: it names the mode first and says in
 * words what kind of run it is, so that a replay, a re-execution and a fork
 * can never be read as one another.
 */
export function headline(run: RunSummary | RunView, style: Style): string {
  const build = `${run.agent.name}/${run.agent.build} (code ${run.agent.codeHash})`;
  const input = formatInput(run.input);
  const seed = run.seed === null ? [] : [`seed ${run.seed}`];
  const parts: string[] = [style.bold(run.mode), `run ${run.runId}`];
  switch (run.mode) {
    case 'record':
      parts.push(build, input, ...(run.at === null ? [] : [`world ${run.at}`]), ...seed);
      break;
    case 'replay:strict':
    case 'replay:fidelity':
      parts.push(
        `${build} over the recorded observations of run ${run.source ?? '?'}${run.sourceCassette === null ? '' : ` (${run.sourceCassette})`}`,
        input,
        ...(run.at === null ? [] : [`world ${run.at} as recorded`]),
      );
      break;
    case 'replay:structural':
      parts.push(
        `${build} over the recorded shapes (structural tier) of run ${run.source ?? '?'}${run.sourceCassette === null ? '' : ` (${run.sourceCassette})`}`,
        input,
        ...(run.at === null ? [] : [`world ${run.at} as recorded`]),
      );
      break;
    case 'reexecution':
      parts.push(
        `a second run of run ${run.source ?? '?'}'s input against the world of ${run.at ?? '?'}, not a replay`,
        build,
        input,
        ...seed,
      );
      break;
    case 'fork':
      parts.push(`${build} forked from run ${run.parent?.runId ?? '?'} at step ${run.parent?.atStep ?? '?'}`, input, ...(run.at === null ? [] : [`world ${run.at}`]), ...seed);
      break;
  }
  return parts.join(' · ');
}

/** The part of a run its ending line reads. */
export interface Ending {
  readonly status: RunStatus;
  readonly outcome: JsonObject | null;
  readonly error: RunErrorRecord | null;
  readonly stepCount?: number;
  readonly steps?: readonly unknown[];
}

/** How a run ended, in one line. */
export function formatEnding(run: Ending, style: Style): string {
  switch (run.status) {
    case 'completed':
      return `${style.green('completed')}: ${formatOutcome(run.outcome)}`;
    case 'diverged':
      // The divergence itself is printed with the findings, diff included.
      return `${style.red('diverged')} at step ${run.error?.step ?? '?'} (${run.error?.code ?? 'REPLAY_DIVERGED'})`;
    case 'failed':
      return run.error === null
        ? style.red(run.status)
        : `${style.red(run.status)} at step ${run.error.step}: ${run.error.code}: ${run.error.message}`;
    case 'running':
      return style.yellow('running');
    case 'interrupted':
      return `${style.yellow('interrupted')}: the process recording it stopped after step ${run.stepCount ?? run.steps?.length ?? 0}`;
  }
}

/** An outcome in one line: `approve, payout 1795: reason`, or compact JSON. */
export function formatOutcome(outcome: JsonObject | null): string {
  if (outcome === null) return 'no outcome';
  // What a structural replay ends with: its final turn is shaped, so only the trajectory was checked.
  if (outcome.judged === false) return 'the trajectory held (the final turn is a shape: the outcome is not judged)';
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
  lines.push(style.dim(`${'step'.padStart(6)}  ${'call'.padEnd(18)}  ${'from'.padEnd(9)}  ${'request'.padEnd(16)}  response`));
  for (const step of run.steps) {
    lines.push(
      `${String(step.step).padStart(6)}  ${`${step.kind}#${step.index}`.padEnd(18)}  ${step.provenance.padEnd(9)}  ${step.requestHash}  ${summarizeStep(step, scenario)}`,
    );
  }
  lines.push(formatEnding(run, style));
  lines.push(...formatFindings(run.findings, style));
  return lines.join('\n');
}

/** A run in a few lines: its headline, how many steps and from where, how it ended, and its findings. */
export function formatRunBrief(run: RunView, style: Style): string {
  const sources = [...new Set(run.steps.map((step) => step.provenance))].join('/');
  return [
    headline(run, style),
    `  ${run.steps.length} steps${sources === '' ? '' : ` (${sources})`}; ${formatEnding(run, style)}`,
    ...formatFindings(run.findings, style).map((line) => `  ${line}`),
  ].join('\n');
}
