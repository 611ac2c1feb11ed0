import { runSuite } from '../../workflows/index.js';
import { writeFileSync } from 'node:fs';
import { findCassetteFiles, readCassetteText } from '../../cassette/index.js';
import type { SuiteResult, SuiteSource } from '../../workflows/index.js';
import { ForkpointError } from '../../errors/index.js';
import { buildOf, loadScenario } from '../../scenario/index.js';
import { sqliteStore } from '../../store/index.js';
import type { Command, CommandContext } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { junitXml } from '../output/junit.js';
import type { Style } from '../output/style.js';
import { stringOption } from '../parse-options.js';
import { printCommandHelp } from './help.js';

/** `forkpoint suite`: strict replay of every cassette in a folder, as a regression suite. */
export const suiteCommand: Command = {
  name: 'suite',
  summary: 'strictly replay every cassette in a folder with one build: passed, failed, diverged',
  usage: '<cassette-dir> --scenario DIR --build NAME [--junit FILE] [--db PATH] [--json]',
  options: {
    scenario: { type: 'string', value: 'DIR', description: 'the scenario whose build to replay (required)' },
    build: { type: 'string', value: 'NAME', description: 'the build to replay (required)' },
    junit: { type: 'string', value: 'FILE', description: 'also write JUnit XML for CI systems' },
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const [directory, extra] = parsed.positionals;
    if (directory === undefined || extra !== undefined)
      throw new ForkpointError(
        'USAGE',
        'suite takes one cassette folder, e.g. `forkpoint suite test/fixtures/cassettes --scenario scenarios/claims-triage --build baseline`',
      );
    const scenarioDir = stringOption(parsed, 'scenario');
    const buildName = stringOption(parsed, 'build');
    if (scenarioDir === undefined || buildName === undefined)
      throw new ForkpointError('USAGE', 'suite needs --scenario DIR and --build NAME');
    const agent = buildOf(await loadScenario(scenarioDir), buildName);
    const files = findCassetteFiles(directory);
    if (files.length === 0) throw new ForkpointError('USAGE', `no cassette files (*.json) under ${directory}`);
    // A suite's replays are evidence for this run of CI, not history: not written anywhere unless --db asks for it.
    const throwaway = parsed.values.db === undefined && cli.io.env.FORKPOINT_DB === undefined;
    const store = throwaway ? sqliteStore({ path: ':memory:' }) : cli.openStore(parsed);
    return withStore(store, async (open) => {
      // One cassette read at a time, just before its replay, so memory does not grow with the folder; read
      // through the store, as a sealed cassette opens only with the key of the store that exported it.
      const engine = cli.engine(parsed, open);
      const source: SuiteSource = { names: files, load: (file) => engine.readCassette(readCassetteText(file), file) };
      const progress =
        cli.io.stderr.isTTY === true ? (done: number, total: number) => drawProgress(cli, done, total) : undefined;
      const result = await runSuite(cli.engine(parsed, open), {
        cassettes: source,
        agent,
        keepRuns: !throwaway,
        ...(progress === undefined ? {} : { onCase: progress }),
      });
      if (progress !== undefined) cli.io.stderr.write('\n');
      const junit = stringOption(parsed, 'junit');
      if (junit !== undefined) writeJunit(junit, result);
      if (parsed.values.json === true) cli.json(result);
      else cli.print(formatSuite(directory, result, cli.style));
      if (result.invalid > 0) return EXIT.badInput;
      return result.failed + result.diverged > 0 ? EXIT.negative : EXIT.ok;
    });
  },
};

function writeJunit(file: string, result: SuiteResult): void {
  try {
    writeFileSync(file, junitXml(result));
  } catch (error) {
    throw new ForkpointError('USAGE', `cannot write ${file} (${(error as Error).message})`, { cause: error });
  }
}

function drawProgress(cli: CommandContext, done: number, total: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  cli.io.stderr.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}`);
}

function formatSuite(directory: string, result: SuiteResult, style: Style): string {
  const lines = [
    `${style.bold('suite')} · replay:strict of ${result.cases.length} cassettes under ${directory} with build ${result.build}`,
  ];
  for (const item of result.cases) {
    if (item.status === 'passed') continue;
    const label = item.status === 'invalid' ? style.red('invalid') : style.red(item.status);
    const detail =
      item.status === 'diverged'
        ? (item.divergence?.message ?? '')
        : item.status === 'failed'
          ? `recorded ${item.recorded ?? '?'}, now ${item.replayed ?? '?'}`
          : `${item.error?.code ?? ''}: ${item.error?.message ?? ''}`;
    lines.push(`  ${label.padEnd(8)} ${item.name}: ${detail}`);
  }
  lines.push(
    `${style.green(`${result.passed} passed`)}, ${result.failed} failed, ${result.diverged} diverged${result.invalid > 0 ? `, ${result.invalid} invalid` : ''}`,
  );
  return lines.join('\n');
}
