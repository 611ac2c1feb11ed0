import type { RunSummary, RunView } from '../read/index.js';
import type { SideEffectPolicy } from '../firewall/index.js';
import { allowsLiveSideEffects, formatSideEffectPolicy } from '../firewall/index.js';
import { describeOverride } from '../fork/index.js';
import type { JsonObject } from '../json/index.js';
import type { CheckpointMigration } from '../vocabulary/index.js';
import { describeCheckpointMigration } from '../vocabulary/index.js';
import type { Style } from './style.js';

/** `key=value` for each field of a run's input: the input in a few characters. */
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
  // A wrapped loop's run says so wherever its build is named: only that loop can replay or fork it.
  const build = `${run.agent.name}/${run.agent.build} (code ${run.agent.codeHash})${run.loop === 'wrapped' ? ' (your own loop)' : ''}`;
  const input = formatInput(run.input);
  const seed = run.seed === null ? [] : [`seed ${run.seed}`];
  const parts: string[] = [style.bold(run.mode), `run ${run.runId}`];
  switch (run.mode) {
    case 'record':
      parts.push(build, input, ...(run.worldAt === null ? [] : [`world ${run.worldAt}`]), ...seed);
      break;
    case 'replay:strict':
    case 'replay:fidelity':
      parts.push(
        `${build} over the recorded observations of run ${run.sourceRunId ?? '?'}${run.sourceCassette === null ? '' : ` (${run.sourceCassette})`}`,
        input,
        ...(run.worldAt === null ? [] : [`world ${run.worldAt} as recorded`]),
      );
      break;
    case 'replay:structural':
      parts.push(
        `${build} over the recorded shapes (structural tier) of run ${run.sourceRunId ?? '?'}${run.sourceCassette === null ? '' : ` (${run.sourceCassette})`}`,
        input,
        ...(run.worldAt === null ? [] : [`world ${run.worldAt} as recorded`]),
      );
      break;
    case 'reexecution':
      parts.push(
        `a second run of run ${run.sourceRunId ?? '?'}'s input against ${run.worldAt === null ? "today's world" : `the world of ${run.worldAt}`}, not a replay`,
        build,
        input,
        ...seed,
      );
      break;
    case 'fork':
      parts.push(
        `${build} forked from run ${run.parent?.runId ?? '?'} at step ${run.parent?.atStep ?? '?'} (${describeOverride(run.parent?.override ?? null, run.parent?.changes)})`,
        ...migrationWords(run.parent?.migration, style),
        input,
        ...(run.worldAt === null ? [] : [`world ${run.worldAt}`]),
        ...seed,
      );
      break;
    case 'fork:prefix':
      parts.push(
        `${build} re-run over the recording of run ${run.parent?.runId ?? '?'} up to step ${run.parent?.atStep ?? '?'}, changed there (${describeOverride(run.parent?.override ?? null, run.parent?.changes)}), live after it: a fork by prefix replay, no state restored`,
        input,
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
      ...migrationWords(resume.migration, style),
    );
  }
  return parts.join(' · ');
}

/** What was done to the checkpoint a run continued from, when anything was: a change of build worth seeing. */
function migrationWords(migration: CheckpointMigration | undefined, style: Style): string[] {
  return migration === undefined
    ? []
    : [style.yellow(`checkpoint migrated: ${describeCheckpointMigration(migration)}`)];
}

/** A run's side-effect firewall in a few words; a policy that lets side effects through stands out. */
export function formatFirewall(policy: SideEffectPolicy, style: Style): string {
  const text = `side effects ${formatSideEffectPolicy(policy)}`;
  return allowsLiveSideEffects(policy) ? style.red(text) : text;
}
