import { Command, Option } from '@commander-js/extra-typings';
import type { RunSummary } from '../../engine/index.js';
import { assertRunId } from '../../engine/index.js';
import type { ReexecutionPlan } from '../../workflows/index.js';
import { divergenceReport, divergenceReportDocument } from '../../workflows/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { Scenario } from '../../scenario/index.js';
import type { World } from '../../world/index.js';
import { buildOf } from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { atOption, repeatsOption, scenarioOption, sideEffectsOption } from '../options/shared-options.js';
import { integerOption } from '../options/value-parsers.js';
import { formatDivergenceReport } from '../output/format-divergence-report.js';
import { scenarioFor } from './scenario-of-run.js';

/**
 * `forkpoint divergence-report`: re-executes recorded runs against the world
 * of a later day and tabulates where each first left its recording: a tool's
 * answer, the model's, per-call bytes in the request, or the code.
 */
export function divergenceReportCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('divergence-report')
      .description('re-execute recorded runs at DATE and tabulate where each first left its recording, by source')
      .usage(
        '--runs ID,ID,... | --all-recorded --at DATE [--repeats K] [--side-effects POLICY] [--build NAME] [--seed N] [--scenario DIR] [--json]',
      )
      .addOption(new Option('--runs <ID,ID,...>', 'the recorded runs to re-execute').argParser(runIdList))
      .addOption(
        new Option(
          '--all-recorded',
          "every run with mode record that forkpoint drove (not a wrapped loop's)",
        ).conflicts('runs'),
      )
      .addOption(atOption("the world's date to re-execute against, YYYY-MM-DD (required)").makeOptionMandatory())
      .addOption(repeatsOption('re-executions per run, with different seeds (default 1)'))
      .addOption(new Option('--build <NAME>', "re-execute every run with this build (default: each run's own)"))
      .addOption(
        integerOption(
          '--seed <N>',
          'derive the seeds from N: the i-th run’s j-th re-execution gets N + i×K + j (default: random)',
          0,
          0xffffffff,
        ),
      )
      .addOption(scenarioOption())
      .addOption(sideEffectsOption()),
  ).action(async (options) => {
    const named = options.runs;
    const all = options.allRecorded === true;
    if (named === undefined && !all)
      throw new ForkpointError('USAGE', 'divergence-report needs exactly one of --runs ID,ID,... and --all-recorded');
    const { at, seed, build, sideEffects } = options;
    const repeats = options.repeats ?? 1;

    // Reading commands never create a database: with none, there is nothing recorded to re-execute.
    const store = await cli.openExistingStore(options, 'write');
    if (store === undefined)
      throw new ForkpointError(
        'RUN_NOT_FOUND',
        `no recorded runs: there is no ${cli.missingStore(cli.dbPath(options))} yet`,
        {
          details: { path: cli.dbLabel(options) },
        },
      );
    await withStore(store, async (open) => {
      const engine = cli.engine(options, open);
      // Every recording forkpoint drove: a wrapped loop's only that loop can run again.
      const runIds =
        named ??
        (await engine.listRuns())
          .filter((run) => run.mode === 'record' && run.loop !== 'wrapped')
          .map((run) => run.runId);
      const report = await divergenceReport(engine, {
        runIds,
        repeats,
        plan: planner(options.scenario, build, (scenario, run) =>
          cli.openWorld(scenario, {
            at,
            seed: seed === undefined ? cli.seed() : (seed + run) % 0x100000000,
            latencyMs: 0,
          }),
        ),
        ...(sideEffects === undefined ? {} : { sideEffects }),
        ...progressFor(cli),
      });
      if (cli.io.stderr.isTTY === true && report.runs > 0) cli.io.stderr.write('\n');
      if (options.json === true) cli.json(divergenceReportDocument(report, at, build ?? null));
      else cli.print(formatDivergenceReport(report, at, build, cli.style));
    });
    cli.exit(EXIT.ok);
  });
}

function runIdList(text: string): string[] {
  const runIds = text
    .split(',')
    .map((runId) => runId.trim())
    .filter((runId) => runId !== '');
  if (runIds.length === 0)
    throw new ForkpointError('USAGE', '--runs needs at least one run id, e.g. --runs 9b40c1d5,1f2e3d4c');
  runIds.forEach(assertRunId);
  return runIds;
}

// Each run is re-executed with its own scenario's build (or --build from it); scenarios load once each.
function planner(
  explicit: string | undefined,
  build: string | undefined,
  worldOf: (scenario: Scenario, run: number) => World,
): (run: RunSummary) => Promise<ReexecutionPlan> {
  const loaded = new Map<string, Promise<{ scenario: Scenario; directory: string }>>();
  return async (run) => {
    const key = explicit ?? run.scenario ?? '';
    let found = loaded.get(key);
    if (found === undefined) loaded.set(key, (found = scenarioFor(explicit, run.scenario, run.runId)));
    const { scenario, directory } = await found;
    return {
      agent: buildOf(scenario, build ?? run.agent.build),
      world: (run) => worldOf(scenario, run),
      scenario: directory,
    };
  };
}

// A progress line only for a person watching a terminal; scripts and pipes get the report alone.
function progressFor(cli: CommandContext): { onProgress?: (done: number, total: number) => void } {
  if (cli.io.stderr.isTTY !== true) return {};
  return { onProgress: (done, total) => cli.io.stderr.write(`\rre-executed ${done}/${total}`) };
}
