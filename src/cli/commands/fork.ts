import { readFileSync } from 'node:fs';
import { outcomeHistogram } from '../../analysis/index.js';
import { assertRunId, assertSeed, assertWorldDate } from '../../engine/index.js';
import type { ForkResult } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { ForkOverride } from '../../fork/index.js';
import { parseForkOverride } from '../../fork/index.js';
import { parseJsonInput } from '../../json/index.js';
import { buildOf } from '../../scenario/index.js';
import type { Command, CommandContext } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatRun, formatRunBrief } from '../output/format-run.js';
import type { ParsedOptions } from '../parse-options.js';
import { integerOption, stringOption } from '../parse-options.js';
import { SHARED_OPTIONS, sideEffectsOption } from '../shared-options.js';
import { printCommandHelp } from './help.js';
import { scenarioFor } from './scenario-of-run.js';

const OVERRIDES = [
  'tool-result',
  'tool-merge',
  'tool-patch',
  'tool-error',
  'model-response',
  'system-prompt',
  'system-prompt-file',
  'model',
  'override',
] as const;

/** `forkpoint fork`: restore the checkpoint after step N-1, change one thing at step N, continue live. */
export const forkCommand: Command = {
  name: 'fork',
  summary:
    'fork a run at step N with one thing changed (a tool result, a model response, the system prompt or the model), and continue live',
  usage:
    '<run-id> --at-step N (--tool-result JSON | --tool-merge JSON | --tool-patch JSON | --tool-error TEXT | --model-response JSON | --system-prompt TEXT | --system-prompt-file FILE | --model ID | --override JSON) [--side-effects POLICY] [--build NAME] [--at DATE] [--seed N] [--repeats K | --run-id HEX] [--json]',
  options: {
    'at-step': { type: 'string', value: 'N', description: 'the step to change (required)' },
    'tool-result': { type: 'string', value: 'JSON', description: 'replace the tool result of step N' },
    'tool-merge': {
      type: 'string',
      value: 'JSON',
      description: 'merge-patch (RFC 7386) the recorded tool result of step N',
    },
    'tool-patch': {
      type: 'string',
      value: 'JSON',
      description: 'apply a JSON Patch (RFC 6902), a list of operations, to the recorded tool result of step N',
    },
    'tool-error': {
      type: 'string',
      value: 'TEXT',
      description: 'make the tool at step N fail with this message (what if the service had failed?)',
    },
    'model-response': {
      type: 'string',
      value: 'JSON',
      description: 'replace the model response of step N (the assistant turn, in the provider-neutral shape)',
    },
    'system-prompt': {
      type: 'string',
      value: 'TEXT',
      description: 'use this system prompt from step N on (a model step)',
    },
    'system-prompt-file': { type: 'string', value: 'FILE', description: 'the same, read from a file' },
    model: { type: 'string', value: 'ID', description: 'use this model from step N on (a model step)' },
    override: {
      type: 'string',
      value: 'JSON',
      description: 'any of the above as one JSON object, e.g. {"kind":"tool-error","message":"timed out"}',
    },
    'side-effects': SHARED_OPTIONS['side-effects'],
    build: SHARED_OPTIONS.build,
    at: { ...SHARED_OPTIONS.at, description: 'the world after the fork (default: the parent’s world date)' },
    seed: SHARED_OPTIONS.seed,
    repeats: {
      type: 'string',
      value: 'K',
      description: 'make K sibling forks with different seeds and count their outcomes',
    },
    'run-id': {
      type: 'string',
      value: 'HEX',
      description: "choose the fork's run id: 12 lowercase hex characters, or 8 (not with --repeats)",
    },
    scenario: SHARED_OPTIONS.scenario,
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const runId = cli.runIdArgument(parsed, 'forkpoint fork 9b40c1d5 --at-step 4 --tool-merge JSON');
    const atStep = integerOption(parsed, 'at-step', 0, Number.MAX_SAFE_INTEGER);
    if (atStep === undefined) throw new ForkpointError('USAGE', 'fork needs --at-step N, the step to change');
    const override = overrideFrom(parsed);
    const sideEffects = sideEffectsOption(parsed);
    const at = stringOption(parsed, 'at');
    if (at !== undefined) assertWorldDate(at);
    const seed = integerOption(parsed, 'seed', 0, 0xffffffff);
    const repeats = integerOption(parsed, 'repeats', 1, 1000) ?? 1;
    if (seed !== undefined) assertSeed(seed + repeats - 1);
    const forkRunId = stringOption(parsed, 'run-id');
    if (forkRunId !== undefined) {
      assertRunId(forkRunId);
      if (repeats > 1)
        throw new ForkpointError('USAGE', '--run-id names one fork; with --repeats each sibling gets an id of its own');
    }

    return withStore(cli.openStoreHolding(parsed, runId, 'write'), async (store) => {
      const engine = cli.engine(parsed, store);
      const parent = await engine.getRunSummary(runId);
      const { scenario, directory } = await scenarioFor(stringOption(parsed, 'scenario'), parent.scenario, runId);
      const agent = buildOf(scenario, stringOption(parsed, 'build') ?? parent.agent.build);
      const worldAt = at ?? parent.at ?? undefined;
      if (worldAt === undefined) throw new ForkpointError('USAGE', `run ${runId} has no world date; pass --at DATE`);
      const forks: ForkResult[] = [];
      for (let i = 0; i < repeats; i++) {
        forks.push(
          await engine.fork({
            parentRunId: runId,
            atStep,
            override,
            agent,
            at: worldAt,
            world: (worldSeed) => scenario.openWorld({ at: worldAt, seed: worldSeed, latencyMs: 0 }),
            scenario: directory,
            ...(sideEffects === undefined ? {} : { sideEffects }),
            ...(forkRunId === undefined ? {} : { runId: forkRunId }),
            ...(seed === undefined ? {} : { seed: seed + i }),
          }),
        );
        if (repeats > 1) cli.note(`fork ${i + 1}/${repeats}: ${forks[i]!.runId}`);
      }
      printForks(cli, parsed, forks, scenario);
      return forks.every((fork) => fork.status === 'completed') ? EXIT.ok : EXIT.negative;
    });
  },
};

function printForks(
  cli: CommandContext,
  parsed: ParsedOptions,
  forks: readonly ForkResult[],
  scenario: Parameters<typeof formatRun>[2],
): void {
  const single = forks.length === 1 ? forks[0] : undefined;
  if (parsed.values.json === true) {
    cli.json(single ?? { mode: 'fork', repeats: forks.length, histogram: outcomeHistogram(forks), runs: forks });
    return;
  }
  if (single !== undefined) {
    cli.print(formatRun(single, cli.style, scenario));
    return;
  }
  for (const fork of forks) cli.print(formatRunBrief(fork, cli.style));
  const histogram = Object.entries(outcomeHistogram(forks)).sort((x, y) => y[1] - x[1]);
  cli.print(`\noutcomes of ${forks.length} sibling forks:`);
  for (const [outcome, count] of histogram) {
    cli.print(
      `  ${outcome.padEnd(32)} ${String(count).padStart(3)}/${forks.length}  ${'#'.repeat(Math.round((count / forks.length) * 30))}`,
    );
  }
}

/** The one override the flags give, checked against its schema before the store is opened. */
function overrideFrom(parsed: ParsedOptions): ForkOverride {
  const given = OVERRIDES.filter((name) => stringOption(parsed, name) !== undefined);
  if (given.length !== 1) {
    throw new ForkpointError(
      'USAGE',
      `fork changes exactly one thing: give one of --${OVERRIDES.join(', --')}${given.length > 1 ? ` (got --${given.join(', --')})` : ''}`,
    );
  }
  const name = given[0]!;
  const value = stringOption(parsed, name)!;
  const json = () => parseJsonInput(value, `--${name}`, 'OVERRIDE_INVALID');
  switch (name) {
    case 'tool-result':
      return parseForkOverride({ kind: 'tool-result', output: json() });
    case 'tool-merge':
      return parseForkOverride({ kind: 'tool-merge', patch: json() });
    case 'tool-patch':
      return parseForkOverride({ kind: 'tool-patch', operations: json() });
    case 'tool-error':
      return parseForkOverride({ kind: 'tool-error', message: value });
    case 'model-response':
      return parseForkOverride({ kind: 'model-response', response: json() });
    case 'system-prompt':
      return parseForkOverride({ kind: 'system-prompt', system: value });
    case 'system-prompt-file':
      return parseForkOverride({ kind: 'system-prompt', system: readPrompt(value), file: value });
    case 'model':
      return parseForkOverride({ kind: 'model', model: value });
    case 'override':
      return parseForkOverride(json());
  }
}

function readPrompt(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ForkpointError('USAGE', `cannot read the system prompt file ${file} (${(error as Error).message})`, {
      cause: error,
    });
  }
}
