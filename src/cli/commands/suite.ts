import { writeFileSync } from 'node:fs';
import { Command, Option } from '@commander-js/extra-typings';
import { findCassetteFiles, readCassetteText } from '../../cassette/index.js';
import type { SuiteCase, SuiteResult, SuiteSource } from '../../workflows/index.js';
import { runSuite } from '../../workflows/index.js';
import { ForkpointError } from '../../errors/index.js';
import { buildOf, loadScenario } from '../../scenario/index.js';
import { sqliteStore } from '../../store/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { junitXml } from '../output/junit.js';
import type { Style } from '../../text/index.js';
import { table } from '../../text/index.js';

/** `forkpoint suite`: strict replay of every cassette in a folder, as a regression suite. */
export function suiteCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('suite')
      .description('strictly replay every cassette in a folder with one build: passed, failed, diverged')
      .usage('<cassette-dir> --scenario DIR --build NAME [--junit FILE] [--db PATH] [--json]')
      .argument('<cassette-dir>', 'the folder of cassette files (*.json), searched recursively')
      .addOption(new Option('--scenario <DIR>', 'the scenario whose build to replay (required)').makeOptionMandatory())
      .addOption(new Option('--build <NAME>', 'the build to replay (required)').makeOptionMandatory())
      .addOption(new Option('--junit <FILE>', 'also write JUnit XML for CI systems')),
  ).action(async (directory, options) => {
    const agent = buildOf(await loadScenario(options.scenario), options.build);
    const files = findCassetteFiles(directory);
    if (files.length === 0)
      throw new ForkpointError('USAGE', `no cassette files (*.json) under ${directory}`, {
        details: { path: directory },
      });
    // A suite's replays are evidence for this run of CI, not history: not written anywhere unless --db asks for it.
    const throwaway = options.db === undefined && cli.io.env.FORKPOINT_DB === undefined;
    const store = throwaway ? sqliteStore({ path: ':memory:' }) : await cli.openStore(options);
    await withStore(store, async (open) => {
      // One cassette read at a time, just before its replay, so memory does not grow with the folder; read
      // through the store, as a sealed cassette opens only with the key of the store that exported it.
      const engine = cli.engine(options, open);
      const source: SuiteSource = {
        names: files,
        load: (file) => engine.readCassette(readCassetteText(file), file),
      };
      const progress =
        cli.io.stderr.isTTY === true
          ? (done: number, total: number) => {
              drawProgress(cli, done, total);
            }
          : undefined;
      const result = await runSuite(engine, {
        cassettes: source,
        agent,
        keepRuns: !throwaway,
        ...(progress === undefined ? {} : { onCase: progress }),
      });
      if (progress !== undefined) cli.io.stderr.write('\n');
      if (options.junit !== undefined) writeJunit(options.junit, result);
      if (options.json === true) cli.json(result);
      else cli.print(formatSuite(directory, result, cli.style));
      cli.exit(result.invalid > 0 ? EXIT.badInput : result.failed + result.diverged > 0 ? EXIT.negative : EXIT.ok);
    });
  });
}

function writeJunit(file: string, result: SuiteResult): void {
  try {
    writeFileSync(file, junitXml(result));
  } catch (error) {
    throw new ForkpointError('USAGE', `cannot write ${file} (${(error as Error).message})`, {
      cause: error,
      details: { path: file },
    });
  }
}

function drawProgress(cli: CommandContext, done: number, total: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  cli.io.stderr.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}`);
}

function formatSuite(directory: string, result: SuiteResult, style: Style): string {
  const unpassed = result.cases.filter((item) => item.status !== 'passed');
  return [
    `${style.bold('suite')} · replay:strict of ${result.cases.length} cassettes under ${directory} with build ${result.build}`,
    ...table(
      unpassed,
      [
        { header: '', cell: (item) => ({ text: item.status, paint: style.red }) },
        { header: '', cell: (item) => `${item.name}: ${detail(item)}` },
      ],
      style,
      { indent: '  ', header: false },
    ),
    `${style.green(`${result.passed} passed`)}, ${result.failed} failed, ${result.diverged} diverged${result.invalid > 0 ? `, ${result.invalid} invalid` : ''}`,
  ].join('\n');
}

function detail(item: SuiteCase): string {
  switch (item.status) {
    case 'diverged':
      return item.divergence?.message ?? '';
    case 'failed':
      return `recorded ${item.recorded ?? '?'}, now ${item.replayed ?? '?'}`;
    default:
      return `${item.error?.code ?? ''}: ${item.error?.message ?? ''}`;
  }
}
