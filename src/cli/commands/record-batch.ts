import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine, RecordResult } from '../../engine/index.js';
import { assertWorldDate, parseCapturePolicy } from '../../engine/index.js';
import { captureStorage, formatCaptureStorage } from '../output/capture-storage.js';
import { ForkpointError } from '../../errors/index.js';
import type { JsonObject } from '../../json/index.js';
import type { Scenario } from '../../scenario/index.js';
import { buildOf, loadScenario, scenarioReference } from '../../scenario/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatInput, formatRunBrief } from '../output/format-run.js';
import type { OptionSpec } from '../parse-options.js';
import { integerOption, stringOption } from '../parse-options.js';
import { SHARED_OPTIONS } from '../shared-options.js';
import { printCommandHelp } from './help.js';

const OPTIONS: Readonly<Record<string, OptionSpec>> = {
  at: SHARED_OPTIONS.at,
  build: SHARED_OPTIONS.build,
  seed: { ...SHARED_OPTIONS.seed, description: 'pin sampling: the i-th run gets seed N+i' },
  capture: {
    ...SHARED_OPTIONS.capture,
    description: `${SHARED_OPTIONS.capture.description} (default errors+sample:0.01)`,
  },
  tier: {
    type: 'string',
    value: 'full|synthetic',
    description:
      'synthetic: the inputs are made up (no customer data), so the runs never expire: for CI fixtures (default full)',
  },
  'runs-per-day': {
    type: 'string',
    value: 'N',
    description: 'size the storage a day of N such runs needs under the policy (default 6000)',
  },
  export: {
    type: 'string',
    value: 'DIR',
    description: 'write each run’s cassette into DIR (the structural tier for runs the policy did not keep)',
  },
  'failed-only': { type: 'boolean', description: 'export only the runs that failed: a suite of recorded failures' },
};

const DEFAULT_CAPTURE = 'errors+sample:0.01';

/** `forkpoint record-batch`: record many inputs at once, and export their cassettes for a suite. */
export const recordBatchCommand: Command = {
  name: 'record-batch',
  summary: 'record many inputs at once (e.g. --claims ALL) and export their cassettes for a suite',
  usage:
    '<scenario-dir> --claims ALL|ID,ID,... --at DATE [--build NAME] [--seed N] [--capture POLICY] [--runs-per-day N] [--tier full|synthetic] [--export DIR [--failed-only]] [--json]',
  options: OPTIONS,
  async run(args, cli) {
    if (args.includes('--help')) return printCommandHelp(this, cli);
    const directory = args[0]?.startsWith('-') === false ? args[0] : undefined;
    if (directory === undefined)
      throw new ForkpointError(
        'USAGE',
        'record-batch needs the scenario directory first, e.g. `forkpoint record-batch scenarios/claims-triage --claims ALL --at 2026-03-04`',
      );
    const scenario = await loadScenario(directory);
    const [flag, ...others] = Object.keys(scenario.inputFlags);
    if (flag === undefined || others.length > 0)
      throw new ForkpointError(
        'USAGE',
        `scenario ${scenario.name} does not take a single input flag, so its inputs cannot be batched`,
      );
    const batchFlag = `${flag}s`;
    const parsed = cli.parse(args, {
      ...OPTIONS,
      [batchFlag]: { type: 'string', value: 'ALL|ID,...', description: `the ${flag}s to record` },
    });
    if (parsed.positionals.length > 1)
      throw new ForkpointError('USAGE', `unexpected argument "${parsed.positionals[1]}"; see --help`);
    const at = stringOption(parsed, 'at');
    if (at === undefined) throw new ForkpointError('USAGE', 'record-batch needs --at DATE');
    assertWorldDate(at);
    const selection = stringOption(parsed, batchFlag);
    if (selection === undefined)
      throw new ForkpointError('USAGE', `record-batch needs --${batchFlag} ALL or a comma-separated list`);
    const inputs = inputsOf(scenario, flag, selection);
    const seed = integerOption(parsed, 'seed', 0, 0xffffffff - inputs.length);
    const agent = buildOf(scenario, stringOption(parsed, 'build'));
    const exportDir = stringOption(parsed, 'export');
    const failedOnly = parsed.values['failed-only'] === true;
    const capture = parseCapturePolicy(stringOption(parsed, 'capture') ?? DEFAULT_CAPTURE);
    const runsPerDay = integerOption(parsed, 'runs-per-day', 1, 1e9) ?? 6000;
    const tier = stringOption(parsed, 'tier') ?? 'full';
    if (tier !== 'full' && tier !== 'synthetic')
      throw new ForkpointError('USAGE', `--tier must be full or synthetic, got "${tier}"`);
    if (failedOnly && exportDir === undefined)
      throw new ForkpointError('USAGE', '--failed-only chooses what --export writes; give --export DIR too');

    return withStore(cli.openStore(parsed), async (store) => {
      const engine = cli.engine(parsed, store);
      const runs: RecordResult[] = [];
      for (const [i, input] of inputs.entries()) {
        runs.push(
          await engine.record({
            agent,
            world: (worldSeed) => scenario.openWorld({ at, seed: worldSeed, latencyMs: 0 }),
            input,
            at,
            scenario: scenarioReference(directory),
            ...(seed === undefined ? {} : { seed: seed + i }),
            capture,
            tier,
          }),
        );
        cli.note(`recorded ${i + 1}/${inputs.length}: ${runs[i]!.runId} ${formatInput(input)} ${runs[i]!.status}`);
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
      if (parsed.values.json === true) {
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
            `${formatRunBrief(run, cli.style)}${run.capture?.kept === false ? cli.style.dim('  (structural tier only)') : ''}`,
          );
        cli.print(
          `recorded ${runs.length} runs: ${runs.length - failed} completed, ${failed} failed${exportDir === undefined ? '' : `; exported ${exported.length} cassettes to ${exportDir}`}`,
        );
        cli.print(formatCaptureStorage(storage));
      }
      return EXIT.ok;
    });
  },
};

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
