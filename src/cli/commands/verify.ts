import { verifyRun } from '../../workflows/index.js';
import type { VerifyResult } from '../../workflows/index.js';
import { assertWorldDate } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { buildOf } from '../../scenario/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatFindings } from '../output/format-findings.js';
import type { Style } from '../output/style.js';
import { integerOption, stringOption } from '../parse-options.js';
import { SHARED_OPTIONS, sideEffectsOption } from '../shared-options.js';
import { printCommandHelp } from './help.js';
import { scenarioFor } from './scenario-of-run.js';

/** `forkpoint verify`: a candidate arm and a control arm over a recorded failure, and one verdict. */
export const verifyCommand: Command = {
  name: 'verify',
  summary: 'verify a fix: candidate and control arms over a recorded failure, and a verdict',
  usage:
    '<run-id> --candidate BUILD --baseline BUILD [--mode replay | reexecution [--at DATE] [--side-effects POLICY]] [--repeats K] [--json]',
  options: {
    candidate: { type: 'string', value: 'BUILD', description: 'the build that should fix the failure (required)' },
    baseline: { type: 'string', value: 'BUILD', description: 'the control arm: the build that failed (required)' },
    mode: {
      type: 'string',
      value: 'MODE',
      description: 'replay (strict, over the recording; default) or reexecution (against the world at --at)',
    },
    at: { type: 'string', value: 'DATE', description: 'with --mode reexecution: the world to run against (required)' },
    repeats: { type: 'string', value: 'K', description: 'runs per arm, with different seeds (default 1)' },
    'side-effects': {
      ...SHARED_OPTIONS['side-effects'],
      description: `with --mode reexecution: ${SHARED_OPTIONS['side-effects'].description}`,
    },
    scenario: SHARED_OPTIONS.scenario,
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const runId = cli.runIdArgument(parsed, 'forkpoint verify 9b40c1d5 --candidate patched --baseline baseline');
    const candidateName = stringOption(parsed, 'candidate');
    const baselineName = stringOption(parsed, 'baseline');
    if (candidateName === undefined || baselineName === undefined) {
      throw new ForkpointError('USAGE', 'verify needs --candidate BUILD and --baseline BUILD (the control arm)');
    }
    const mode = stringOption(parsed, 'mode') ?? 'replay';
    if (mode !== 'replay' && mode !== 'reexecution')
      throw new ForkpointError('USAGE', `--mode is replay or reexecution, got "${mode}"`);
    const at = stringOption(parsed, 'at');
    if (mode === 'reexecution' && at === undefined)
      throw new ForkpointError('USAGE', 'verify --mode reexecution needs --at DATE, the world both arms run against');
    if (mode === 'replay' && at !== undefined)
      throw new ForkpointError(
        'USAGE',
        '--at only applies to --mode reexecution: a replay runs over the recorded world',
      );
    if (at !== undefined) assertWorldDate(at);
    const repeats = integerOption(parsed, 'repeats', 1, 1000) ?? 1;
    const sideEffects = sideEffectsOption(parsed);
    if (sideEffects !== undefined && mode !== 'reexecution')
      throw new ForkpointError(
        'USAGE',
        '--side-effects only applies to --mode reexecution: a strict replay never calls a tool',
      );

    return withStore(cli.openStoreHolding(parsed, runId, 'write'), async (store) => {
      const engine = cli.engine(parsed, store);
      const recording = await engine.getRunSummary(runId);
      const { scenario, directory } = await scenarioFor(stringOption(parsed, 'scenario'), recording.scenario, runId);
      const common = {
        runId,
        candidate: buildOf(scenario, candidateName),
        baseline: buildOf(scenario, baselineName),
        repeats,
        scenario: directory,
      };
      const result =
        mode === 'replay'
          ? await verifyRun(engine, { ...common, mode: 'replay' })
          : await verifyRun(engine, {
              ...common,
              mode: 'reexecution',
              at: at!,
              world: (seed) => scenario.openWorld({ at: at!, seed, latencyMs: 0 }),
              ...(sideEffects === undefined ? {} : { sideEffects }),
            });
      if (parsed.values.json === true) cli.json(result);
      else cli.print(formatVerification(result, cli.style));
      return result.verdict === 'fix-confirmed' ? EXIT.ok : EXIT.negative;
    });
  },
};

function formatVerification(result: VerifyResult, style: Style): string {
  const arm = (label: string, side: VerifyResult['candidate']) => {
    const outcomes = Object.entries(side.outcomes)
      .map(([key, count]) => `${key} ${count}/${side.runs.length}`)
      .join(', ');
    return `  ${label.padEnd(9)} ${side.build.padEnd(12)} ${outcomes.padEnd(44)} runs ${side.runs.join(' ')}`;
  };
  const good = result.verdict === 'fix-confirmed';
  return [
    `${style.bold('verify')} · run ${result.runId} · candidate ${result.candidate.build} against control ${result.control.build} · arms of ${result.mode} ×${result.repeats}`,
    arm('candidate', result.candidate),
    arm('control', result.control),
    ...(result.divergence === null
      ? []
      : formatFindings([result.divergence.divergence], style).map((line) => `  ${line}`)),
    `verdict: ${good ? style.green(result.verdict) : style.red(result.verdict)}: ${result.reason}`,
  ].join('\n');
}
