import { Command, Option } from '@commander-js/extra-typings';
import type { VerifyResult } from '../../workflows/index.js';
import { verifyRun } from '../../workflows/index.js';
import { requireDriven } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { buildOf } from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { atOption, repeatsOption, scenarioOption, sideEffectsOption } from '../options/shared-options.js';
import { runIdValue } from '../options/value-parsers.js';
import { formatFindings } from '../output/format-findings.js';
import type { Style } from '../../text/index.js';
import { table } from '../../text/index.js';
import { scenarioFor } from './scenario-of-run.js';

/** `forkpoint verify`: a candidate arm and a control arm over a recorded failure, and one verdict. */
export function verifyCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('verify')
      .description('verify a fix: candidate and control arms over a recorded failure, and a verdict')
      .usage(
        '<run-id> --candidate BUILD --baseline BUILD [--mode replay | reexecution [--at DATE] [--side-effects POLICY]] [--repeats K] [--json]',
      )
      .argument('<run-id>', 'the recorded failure, e.g. 9b40c1d5', runIdValue)
      .addOption(
        new Option('--candidate <BUILD>', 'the build that should fix the failure (required)').makeOptionMandatory(),
      )
      .addOption(
        new Option('--baseline <BUILD>', 'the control arm: the build that failed (required)').makeOptionMandatory(),
      )
      .addOption(
        new Option(
          '--mode <MODE>',
          'replay (strict, over the recording; default) or reexecution (against the world at --at)',
        ).choices(['replay', 'reexecution'] as const),
      )
      .addOption(atOption('with --mode reexecution: the world to run against (required)'))
      .addOption(repeatsOption('runs per arm, with different seeds (default 1)'))
      .addOption(sideEffectsOption('with --mode reexecution: '))
      .addOption(scenarioOption()),
  ).action(async (runId, options) => {
    const mode = options.mode ?? 'replay';
    const { at, sideEffects } = options;
    if (mode === 'reexecution' && at === undefined)
      throw new ForkpointError('USAGE', 'verify --mode reexecution needs --at DATE, the world both arms run against');
    if (mode === 'replay' && at !== undefined)
      throw new ForkpointError(
        'USAGE',
        '--at only applies to --mode reexecution: a replay runs over the recorded world',
      );
    if (sideEffects !== undefined && mode !== 'reexecution')
      throw new ForkpointError(
        'USAGE',
        '--side-effects only applies to --mode reexecution: a strict replay never calls a tool',
      );
    const repeats = options.repeats ?? 1;

    await withStore(await cli.openStoreHolding(options, runId, 'write'), async (store) => {
      const engine = cli.engine(options, store);
      const recording = await engine.getRunSummary(runId);
      requireDriven(recording, 'verify');
      const { scenario, directory } = await scenarioFor(options.scenario, recording.scenario, runId);
      const common = {
        runId,
        candidate: buildOf(scenario, options.candidate),
        baseline: buildOf(scenario, options.baseline),
        repeats,
        scenario: directory,
      };
      const result =
        at === undefined
          ? await verifyRun(engine, { ...common, mode: 'replay' })
          : await verifyRun(engine, {
              ...common,
              mode: 'reexecution',
              world: () => cli.openWorld(scenario, { at, seed: cli.seed(), latencyMs: 0 }),
              ...(sideEffects === undefined ? {} : { sideEffects }),
            });
      if (options.json === true) cli.json(result);
      else cli.print(formatVerification(result, cli.style));
      cli.exit(result.verdict === 'fix-confirmed' ? EXIT.ok : EXIT.negative);
    });
  });
}

function formatVerification(result: VerifyResult, style: Style): string {
  const arms: [string, VerifyResult['candidate']][] = [
    ['candidate', result.candidate],
    ['control', result.control],
  ];
  const good = result.verdict === 'fix-confirmed';
  return [
    `${style.bold('verify')} · run ${result.runId} · candidate ${result.candidate.build} against control ${result.control.build} · arms of ${result.mode} ×${result.repeats}`,
    ...table(
      arms,
      [
        { header: '', cell: ([label]) => label },
        { header: '', cell: ([, side]) => side.build },
        {
          header: '',
          cell: ([, side]) =>
            Object.entries(side.outcomes)
              .map(([key, count]) => `${key} ${count}/${side.runs.length}`)
              .join(', '),
        },
        { header: '', cell: ([, side]) => `runs ${side.runs.join(' ')}` },
      ],
      style,
      { indent: '  ', header: false },
    ),
    ...(result.divergence === null
      ? []
      : formatFindings([result.divergence.divergence], style).map((line) => `  ${line}`)),
    `verdict: ${good ? style.green(result.verdict) : style.red(result.verdict)}: ${result.reason}`,
  ].join('\n');
}
