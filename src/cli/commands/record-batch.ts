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
import { formatInput, summarizerOf } from '../../text/index.js';
import { formatRunBrief } from '../output/format-run.js';
import { dateOption } from '../options/value-parsers.js';
import { MAX_BATCH_DAYS, batchDays, PeriodClock } from './batch-period.js';

const DEFAULT_CAPTURE = 'errors+sample:0.01';

/**
 * `forkpoint record-batch`: record many inputs at once, on one day or on
 * every day of a period, and export their cassettes for a suite.
 */
export function recordBatchCommand(cli: CommandContext) {
  const command = withCommonOptions(
    new Command('record-batch')
      .description(
        `record many inputs at once and export their cassettes for a suite; with --until, every input on every day of a period (at most ${MAX_BATCH_DAYS} days), each day's runs made on that day`,
      )
      .usage(
        '<scenario-dir> --<input flag>s ALL|VALUE,... --at DATE [--until DATE] [--build NAME] [--seed N] [--capture POLICY] [--runs-per-day N] [--tier full|synthetic] [--export DIR [--failed-only]] [--json]',
      )
      .argument('<scenario-dir>', 'the scenario: its builds, its world, and the batch flag listed below')
      .addOption(
        atOption("the world's date, YYYY-MM-DD; with --until, the first day of the period").makeOptionMandatory(),
      )
      .addOption(
        dateOption(
          '--until <DATE>',
          "the last day of the period, inclusive: every input is recorded on each day from --at, day by day, against that day's world, and each day's runs are made on that day (09:00 UTC, a minute apart), as the traffic of the period would have been",
        ),
      )
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
    const { at, until } = options;
    const days = batchDays(at, until);
    if (until !== undefined && options.now !== undefined)
      throw new ForkpointError(
        'USAGE',
        '--now and --until: a batch over a period makes each day’s runs on that day; drop --now',
      );
    const inputs = inputsOf(scenario, batch.flag, batch.value);
    const total = inputs.length * days.length;
    if (options.seed !== undefined && options.seed > 0xffffffff - total)
      throw new ForkpointError(
        'USAGE',
        `--seed must be a whole number from 0 to ${0xffffffff - total}, got "${options.seed}"`,
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
      // Over a period, the engine's clock reads the instant of the run it is making (and, for the export, of
      // the run it exports): each day's runs are made on that day.
      const clock = new PeriodClock();
      const engine = until === undefined ? cli.engine(options, store) : cli.engine(options, store, clock.read);
      const made: BatchRun[] = [];
      for (const [d, day] of days.entries()) {
        for (const [position, input] of inputs.entries()) {
          const i = d * inputs.length + position;
          const instant = until === undefined ? undefined : clock.at(day, position, inputs.length);
          const run = await engine.record({
            agent,
            world: cli.openWorld(scenario, {
              at: day,
              seed: cli.seed(seed === undefined ? undefined : seed + i),
              latencyMs: 0,
            }),
            input,
            scenario: scenarioReference(directory),
            capture,
            tier,
          });
          made.push({ run, day, instant });
          cli.note(
            `recorded ${i + 1}/${total}: ${run.runId} ${formatInput(input)}${until === undefined ? '' : ` on ${day}`} ${run.status}`,
          );
        }
      }
      const runs = made.map(({ run }) => run);
      const exported: string[] = [];
      if (exportDir !== undefined) {
        await exporting(exportDir, () => {
          mkdirSync(exportDir, { recursive: true });
        });
        for (const entry of made.filter(({ run }) => !failedOnly || run.status === 'failed')) {
          if (entry.instant !== undefined) clock.set(entry.instant);
          exported.push(await exportRun(engine, exportDir, entry, agent.build));
        }
      }
      const failed = runs.filter((run) => run.status !== 'completed').length;
      const storage = captureStorage(capture, runs, runsPerDay);
      if (options.json === true) {
        cli.json({
          mode: 'record-batch',
          at,
          until: until ?? at,
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
          `recorded ${runs.length} runs${until === undefined ? '' : ` over ${days.length} days, ${at} to ${until}`}: ${runs.length - failed} completed, ${failed} failed${exportDir === undefined ? '' : `; exported ${exported.length} cassettes to ${exportDir}`}`,
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

/** One run of a batch: the day its world was opened on, and the instant it was made at over a period. */
interface BatchRun {
  readonly run: RecordResult;
  readonly day: string;
  readonly instant: Date | undefined;
}

async function exportRun(engine: Engine, directory: string, entry: BatchRun, build: string): Promise<string> {
  const { run, day } = entry;
  const name = Object.values(run.input)
    .map(String)
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '_');
  const tier = run.capture?.kept === false ? 'structural' : 'full';
  const file = join(directory, `${name}-${day}-${build}${tier === 'structural' ? '.structural' : ''}.cassette.json`);
  // As `export` writes it: a full tier sealed with the store's key, the other tiers open.
  await exporting(directory, async () => {
    writeFileSync(file, (await engine.exportCassette(run.runId, { tier })).text);
  });
  return file;
}

// Whatever stops an export (a folder that cannot be made, a file that cannot be written) is the caller's to fix.
async function exporting(directory: string, work: () => Promise<void> | void): Promise<void> {
  try {
    await work();
  } catch (error) {
    throw new ForkpointError('USAGE', `cannot export cassettes to ${directory} (${(error as Error).message})`, {
      cause: error,
    });
  }
}
