import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from '@commander-js/extra-typings';
import type { Engine, RecordResult } from '../../engine/index.js';
import { parseCapturePolicy } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { JsonObject } from '../../json/index.js';
import type { Scenario } from '../../scenario/index.js';
import { buildOf, scenarioReference } from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { ScenarioFlags } from '../options/scenario-flags.js';
import { atOption, buildOption, captureOption, seedOption } from '../options/shared-options.js';
import { integerOption } from '../options/value-parsers.js';
import { captureStorage, formatCaptureStorage } from '../output/capture-storage.js';
import { formatInput } from '../output/format-headline.js';
import { formatRunBrief } from '../output/format-run.js';
import { summarizerOf } from '../output/summarizer.js';

const DEFAULT_CAPTURE = 'errors+sample:0.01';

/** `forkpoint record-batch`: record many inputs at once, and export their cassettes for a suite. */
export function recordBatchCommand(cli: CommandContext) {
  const command = withCommonOptions(
    new Command('record-batch')
      .description('record many inputs at once and export their cassettes for a suite')
      .usage(
        '<scenario-dir> --<input flag>s ALL|VALUE,... --at DATE [--build NAME] [--seed N] [--capture POLICY] [--runs-per-day N] [--tier full|synthetic] [--export DIR [--failed-only]] [--json]',
      )
      .argument('<scenario-dir>', 'the scenario: its builds, its world, and the batch flag listed below')
      .addOption(atOption().makeOptionMandatory())
      .addOption(buildOption())
      .addOption(seedOption('pin sampling: the i-th run gets seed N+i'))
      .addOption(captureOption(DEFAULT_CAPTURE))
      .addOption(
        new Option(
          '--tier <TIER>',
          'synthetic: the inputs are made up (no customer data), so the runs never expire: for CI fixtures (default full)',
        ).choices(['full', 'synthetic'] as const),
      )
      .addOption(
        integerOption(
          '--runs-per-day <N>',
          'size the storage a day of N such runs needs under the policy (default 6000)',
          1,
          1e9,
        ),
      )
      .addOption(
        new Option(
          '--export <DIR>',
          'write each run’s cassette into DIR (the structural tier for runs the policy did not keep)',
        ),
      )
      .addOption(new Option('--failed-only', 'export only the runs that failed: a suite of recorded failures')),
  );
  const flags = ScenarioFlags.attach(command, { batch: true });
  return command.action(async (directory, options) => {
    const batch = await flags.readBatch(command, directory);
    const { scenario } = batch;
    if (batch.value === undefined)
      throw new ForkpointError('USAGE', `record-batch needs --${batch.flag}s ALL or a comma-separated list`);
    const { at } = options;
    const inputs = inputsOf(scenario, batch.flag, batch.value);
    if (options.seed !== undefined && options.seed > 0xffffffff - inputs.length)
      throw new ForkpointError(
        'USAGE',
        `--seed must be a whole number from 0 to ${0xffffffff - inputs.length}, got "${options.seed}"`,
      );
    const { seed } = options;
    const agent = buildOf(scenario, options.build);
    const exportDir = options.export;
    const failedOnly = options.failedOnly === true;
    const capture = options.capture ?? parseCapturePolicy(DEFAULT_CAPTURE);
    const runsPerDay = options.runsPerDay ?? 6000;
    const tier = options.tier ?? 'full';
    if (failedOnly && exportDir === undefined)
      throw new ForkpointError('USAGE', '--failed-only chooses what --export writes; give --export DIR too');
    const summarizer = summarizerOf(scenario);

    await withStore(await cli.openStore(options), async (store) => {
      const engine = cli.engine(options, store);
      const runs: RecordResult[] = [];
      for (const [i, input] of inputs.entries()) {
        const run = await engine.record({
          agent,
          world: cli.openWorld(scenario, {
            at,
            seed: cli.seed(seed === undefined ? undefined : seed + i),
            latencyMs: 0,
          }),
          input,
          scenario: scenarioReference(directory),
          capture,
          tier,
        });
        runs.push(run);
        cli.note(`recorded ${i + 1}/${inputs.length}: ${run.runId} ${formatInput(input)} ${run.status}`);
      }
      const exported =
        exportDir === undefined
          ? []
          : await exportRuns(
              engine,
              exportDir,
              runs.filter((run) => !failedOnly || run.status === 'failed'),
              at,
              agent.build,
            );
      const failed = runs.filter((run) => run.status !== 'completed').length;
      const storage = captureStorage(capture, runs, runsPerDay);
      if (options.json === true) {
        cli.json({
          mode: 'record-batch',
          at,
          build: agent.build,
          recorded: runs.length,
          failed,
          capture: storage,
          runs: runs.map(({ steps: _steps, ...run }) => run),
          exported,
        });
      } else {
        for (const run of runs)
          cli.print(
            `${formatRunBrief(run, cli.style, summarizer)}${run.capture?.kept === false ? cli.style.dim('  (structural tier only)') : ''}`,
          );
        cli.print(
          `recorded ${runs.length} runs: ${runs.length - failed} completed, ${failed} failed${exportDir === undefined ? '' : `; exported ${exported.length} cassettes to ${exportDir}`}`,
        );
        cli.print(formatCaptureStorage(storage));
      }
    });
    cli.exit(EXIT.ok);
  });
}

function inputsOf(scenario: Scenario, flag: string, selection: string): readonly JsonObject[] {
  if (selection === 'ALL') {
    if (scenario.allInputs === undefined)
      throw new ForkpointError('USAGE', `scenario ${scenario.name} cannot list all its inputs; name them`);
    return scenario.allInputs();
  }
  const names = selection
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new ForkpointError('USAGE', `--${flag}s needs ALL or at least one ${flag}`);
  return names.map((name) => scenario.inputFrom({ [flag]: name }));
}

async function exportRuns(
  engine: Engine,
  directory: string,
  runs: readonly RecordResult[],
  at: string,
  build: string,
): Promise<string[]> {
  try {
    mkdirSync(directory, { recursive: true });
    const files: string[] = [];
    for (const run of runs) {
      const name = Object.values(run.input)
        .map(String)
        .join('-')
        .replace(/[^A-Za-z0-9._-]+/g, '_');
      const tier = run.capture?.kept === false ? 'structural' : 'full';
      const file = join(directory, `${name}-${at}-${build}${tier === 'structural' ? '.structural' : ''}.cassette.json`);
      // As `export` writes it: a full tier sealed with the store's key, the other tiers open.
      writeFileSync(file, (await engine.exportCassette(run.runId, { tier })).text);
      files.push(file);
    }
    return files;
  } catch (error) {
    throw new ForkpointError('USAGE', `cannot export cassettes to ${directory} (${(error as Error).message})`, {
      cause: error,
    });
  }
}
