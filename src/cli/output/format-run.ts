import type { RunSummary, RunView, StepView } from '../../engine/index.js';
import type { SideEffectPolicy } from '../../firewall/index.js';
import { allowsLiveSideEffects, formatSideEffectPolicy } from '../../firewall/index.js';
import { describeOverride } from '../../fork/index.js';
import type { JsonObject } from '../../json/index.js';
import type { RunErrorRecord } from '../../store/index.js';
import type { RunStatus } from '../../vocabulary/index.js';
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
      parts.push(
        `${build} forked from run ${run.parent?.runId ?? '?'} at step ${run.parent?.atStep ?? '?'} (${describeOverride(run.parent?.override ?? null, run.parent?.changes)})`,
        input,
        ...(run.at === null ? [] : [`world ${run.at}`]),
        ...seed,
      );
      break;
  }
  if (run.sideEffects !== null) parts.push(formatFirewall(run.sideEffects, style));
  for (const resume of run.resumes) {
    parts.push(
      style.yellow(
        `resumed at step ${resume.fromStep} (attempt ${resume.attempt}, after ${resume.after}, ${resume.at})`,
      ),
      formatFirewall(resume.sideEffects, style),
    );
  }
  return parts.join(' · ');
}

/** A run's side-effect firewall in a few words; a policy that lets side effects through stands out. */
export function formatFirewall(policy: SideEffectPolicy, style: Style): string {
  const text = `side effects ${formatSideEffectPolicy(policy)}`;
  return allowsLiveSideEffects(policy) ? style.red(text) : text;
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

/**
 * A step's source in words: its provenance, and `live side effect` where a
 * tool that is not read-only was called for real past a recording.
 */
export function provenanceWords(step: Pick<StepView, 'provenance' | 'sideEffect'>): string {
  return step.sideEffect ? 'live side effect' : step.provenance;
}

/** How a run's step table is laid out: an attempt column for a resumed run, a wider source for live side effects. */
export interface StepTableLayout {
  readonly attempts: boolean;
  readonly fromWidth: number;
}

/** The layout that fits a run's steps. */
export function stepTableLayout(run: Pick<RunView, 'resumes' | 'steps'>): StepTableLayout {
  return { attempts: run.resumes.length > 0, fromWidth: run.steps.some((step) => step.sideEffect) ? 16 : 9 };
}

/** The step table's header line. */
export function stepTableHeader(layout: StepTableLayout, style: Style): string {
  return style.dim(
    `${'step'.padStart(6)}  ${layout.attempts ? 'attempt  ' : ''}${'call'.padEnd(18)}  ${'from'.padEnd(layout.fromWidth)}  ${'request'.padEnd(16)}  response`,
  );
}

/** One step as a line of the table. */
export function stepTableLine(step: StepView, layout: StepTableLayout, style: Style, scenario?: Scenario): string {
  // Padded as plain words, then coloured: colour codes would count towards the width.
  const words = provenanceWords(step);
  const from = (step.sideEffect ? style.red(words) : words) + ' '.repeat(Math.max(0, layout.fromWidth - words.length));
  const attempt = layout.attempts ? `${String(step.attempt).padStart(7)}  ` : '';
  return `${String(step.step).padStart(6)}  ${attempt}${`${step.kind}#${step.index}`.padEnd(18)}  ${from}  ${step.requestHash}  ${summarizeStep(step, scenario)}`;
}

/** How a run ended and what it found: the lines after its step table. */
export function formatRunEnd(run: RunView, style: Style): string[] {
  return [formatEnding(run, style), ...formatFindings(run.findings, style)];
}

/** A run with its steps, as `record` and `show` print it. A resumed run's steps say which attempt wrote them. */
export function formatRun(run: RunView, style: Style, scenario?: Scenario): string {
  const layout = stepTableLayout(run);
  return [
    headline(run, style),
    stepTableHeader(layout, style),
    ...run.steps.map((step) => stepTableLine(step, layout, style, scenario)),
    ...formatRunEnd(run, style),
  ].join('\n');
}

/** A run in a few lines: its headline, how many steps and from where, how it ended, and its findings. */
export function formatRunBrief(run: RunView, style: Style): string {
  const sources = [...new Set(run.steps.map((step) => step.provenance))].join('/');
  const effects = run.steps.filter((step) => step.sideEffect);
  const fired =
    effects.length === 0
      ? ''
      : `, ${style.red(`${effects.length} live side effect${effects.length === 1 ? '' : 's'}: ${effects.map((step) => `${step.kind}#${step.index}`).join(', ')}`)}`;
  return [
    headline(run, style),
    `  ${run.steps.length} steps${sources === '' ? '' : ` (${sources}${fired})`}; ${formatEnding(run, style)}`,
    ...formatFindings(run.findings, style).map((line) => `  ${line}`),
  ].join('\n');
}
