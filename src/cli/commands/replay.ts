import { Command, Option } from '@commander-js/extra-typings';
import { cassetteTierOf, readCassetteText } from '../../cassette/index.js';
import type { ReplayOptions } from '../../engine/index.js';
import { requireDriven } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { buildOf } from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { buildOption, scenarioOption, sideEffectsOption } from '../options/shared-options.js';
import { runIdValue } from '../options/value-parsers.js';
import { formatCostLine } from '../output/format-cost.js';
import { formatRun } from '../output/format-run.js';
import { summarizerOf } from '../../text/index.js';
import { scenarioFor } from './scenario-of-run.js';

/**
 * `forkpoint replay`: re-executes a build from step 0 over a run's recorded
 * observations. Strict (the default) stops at the first request the cassette
 * cannot answer and prints the divergence (status `diverged`, exit 1);
 * fidelity reports every divergence; `--tier structural` replays the run's
 * shape, matching requests by their shape.
 */
export function replayCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('replay')
      .description('replay a run: the current build over its recorded observations (strict by default)')
      .usage(
        '<run-id> | --cassette FILE --scenario DIR   [--build NAME] [--strict | --fidelity [--on-miss live [--side-effects POLICY]] | --tier structural] [--json]',
      )
      .argument('[run-id]', 'the recorded run, e.g. 9b40c1d5 (or --cassette FILE)', runIdValue)
      .addOption(buildOption('the build to replay (default: the recorded one)'))
      .addOption(new Option('--strict', 'every answer from the cassette; a miss is an error (default)'))
      .addOption(
        new Option('--fidelity', 'a miss is a finding: report where and why the run leaves the recording').conflicts(
          'strict',
        ),
      )
      .addOption(
        new Option('--on-miss <WHAT>', 'with --fidelity: live asks the live world from the first miss on').choices([
          'live',
          'stop',
        ] as const),
      )
      .addOption(sideEffectsOption('with --on-miss live: '))
      .addOption(
        new Option(
          '--tier <TIER>',
          "the tier to replay: full (default) or structural, the run's shape (strict, never live)",
        ).choices(['full', 'structural'] as const),
      )
      .addOption(
        new Option(
          '--cassette <FILE>',
          'replay a cassette file instead of a stored run (its tier is read from the file)',
        ),
      )
      .addOption(scenarioOption()),
  ).action(async (runId, options) => {
    const source = sourceOf(runId, options.cassette);
    const file = 'file' in source ? source.file : undefined;
    const fidelity = options.fidelity === true;
    const { onMiss, sideEffects } = options;
    if (onMiss !== undefined && !fidelity)
      throw new ForkpointError(
        'USAGE',
        '--on-miss takes "live" (or "stop"), and only with --fidelity: strict replay never goes live',
      );
    if (sideEffects !== undefined && onMiss !== 'live') {
      throw new ForkpointError(
        'USAGE',
        '--side-effects only applies with --fidelity --on-miss live: every other replay answers from the recording and never calls a tool',
      );
    }
    if (file !== undefined && options.scenario === undefined)
      throw new ForkpointError('USAGE', 'replay --cassette FILE needs --scenario DIR, the scenario whose build to run');
    const text = file === undefined ? undefined : readCassetteText(file);
    // The file is checked fully through the store (a sealed one needs its key); its tier decides the replay now.
    const tier = options.tier ?? (text !== undefined && cassetteTierOf(text) === 'structural' ? 'structural' : 'full');
    if (tier === 'structural' && fidelity)
      throw new ForkpointError('USAGE', 'a structural replay is strict: it cannot take --fidelity');

    await withStore(await cli.openStore(options), async (store) => {
      const engine = cli.engine(options, store);
      const cassette =
        'runId' in source
          ? await engine.cassette(source.runId, tier)
          : await engine.readCassette(text ?? readCassetteText(source.file), source.file);
      requireDriven(cassette, 'replay');
      const { scenario, directory } = await scenarioFor(
        options.scenario,
        cassette.source.scenario,
        cassette.source.runId,
      );
      const agent = buildOf(scenario, options.build ?? cassette.agent.build);
      const base = { agent, cassette, scenario: directory, ...(file === undefined ? {} : { cassetteFile: file }) };
      // The recording's own world, as its cassette describes it.
      const at = cassette.source.worldAt ?? '1970-01-01';
      const seed = cassette.source.seed ?? 0;
      const replay: ReplayOptions =
        tier === 'structural'
          ? { ...base, mode: 'structural' }
          : !fidelity
            ? { ...base, mode: 'strict' }
            : onMiss === 'live'
              ? {
                  ...base,
                  mode: 'fidelity',
                  onMiss: 'live',
                  world: cli.openWorld(scenario, { at, seed, latencyMs: 0 }),
                  ...(sideEffects === undefined ? {} : { sideEffects }),
                }
              : { ...base, mode: 'fidelity' };
      const result = await engine.replay(replay);
      if (options.json === true) cli.json(result);
      else cli.print(`${formatRun(result, cli.style, summarizerOf(scenario))}\n${formatCostLine(result, cli.style)}`);
      if (result.mode === 'replay:fidelity') cli.exit(result.status === 'failed' ? EXIT.negative : EXIT.ok);
      else cli.exit(result.status === 'completed' ? EXIT.ok : EXIT.negative);
    });
  });
}

// What to replay: a stored run, or a cassette file read now (exactly one of them).
function sourceOf(
  runId: string | undefined,
  file: string | undefined,
): { readonly runId: string } | { readonly file: string } {
  if (runId !== undefined && file === undefined) return { runId };
  if (runId === undefined && file !== undefined) return { file };
  throw new ForkpointError('USAGE', 'replay takes a run id, or --cassette FILE with --scenario DIR (not both)');
}
