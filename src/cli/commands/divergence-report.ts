import type { RunSummary } from '../../engine/index.js';
import type { ReexecutionPlan } from '../../workflows/index.js';
import { assertRunId, assertWorldDate } from '../../engine/index.js';
import { divergenceReport } from '../../workflows/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { Scenario } from '../../scenario/index.js';
import { buildOf } from '../../scenario/index.js';
import type { Command, CommandContext } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatDivergenceReport } from '../output/format-divergence-report.js';
import type { ParsedOptions } from '../parse-options.js';
import { integerOption, stringOption } from '../parse-options.js';
import { SHARED_OPTIONS, sideEffectsOption } from '../shared-options.js';
import { printCommandHelp } from './help.js';
import { scenarioFor } from './scenario-of-run.js';

/**
 * `forkpoint divergence-report`: re-executes recorded runs against the world
 * of a later day and tabulates where each first left its recording: a tool's
 * answer, the model's, per-call bytes in the request, or the code.
 */
export const divergenceReportCommand: Command = {
  name: 'divergence-report',
  summary: 're-execute recorded runs at DATE and tabulate where each first left its recording, by source',
  usage:
    '--runs ID,ID,... | --all-recorded --at DATE [--repeats K] [--side-effects POLICY] [--build NAME] [--seed N] [--scenario DIR] [--json]',
  options: {
    runs: { type: 'string', value: 'ID,ID,...', description: 'the recorded runs to re-execute' },
    'all-recorded': { type: 'boolean', description: 'every run with mode record' },
    at: { ...SHARED_OPTIONS.at, description: "the world's date to re-execute against, YYYY-MM-DD (required)" },
    repeats: { type: 'string', value: 'K', description: 're-executions per run, with different seeds (default 1)' },
    build: {
      type: 'string',
      value: 'NAME',
      description: "re-execute every run with this build (default: each run's own)",
    },
    seed: {
      type: 'string',
      value: 'N',
      description: 'derive the seeds from N: the i-th run’s j-th re-execution gets N + i×K + j (default: random)',
    },
    scenario: SHARED_OPTIONS.scenario,
    'side-effects': SHARED_OPTIONS['side-effects'],
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const [extra] = parsed.positionals;
    if (extra !== undefined)
      throw new ForkpointError('USAGE', `unexpected argument "${extra}"; name runs with --runs ID,ID,...`);
    const named = runIdsOption(parsed);
    const all = parsed.values['all-recorded'] === true;
    if ((named === undefined) === !all) {
      throw new ForkpointError('USAGE', 'divergence-report needs exactly one of --runs ID,ID,... and --all-recorded');
    }
    const at = stringOption(parsed, 'at');
    if (at === undefined)
      throw new ForkpointError(
        'USAGE',
        'divergence-report needs --at DATE, the day of the world to re-execute against',
      );
    assertWorldDate(at);
    const repeats = integerOption(parsed, 'repeats', 1, 1000) ?? 1;
    const seed = integerOption(parsed, 'seed', 0, 0xffffffff);
    const build = stringOption(parsed, 'build');
    const sideEffects = sideEffectsOption(parsed);

    // Reading commands never create a database: with none, there is nothing recorded to re-execute.
    const store = cli.openExistingStore(parsed, 'write');
    if (store === undefined)
      throw new ForkpointError('RUN_NOT_FOUND', `no recorded runs: there is no database at ${cli.dbPath(parsed)} yet`);
    return withStore(store, async (open) => {
      const engine = cli.engine(parsed, open);
      const runIds = named ?? (await engine.listRuns()).filter((run) => run.mode === 'record').map((run) => run.runId);
      const report = await divergenceReport(engine, {
        runIds,
        at,
        repeats,
        ...(seed === undefined ? {} : { seed }),
        plan: planner(stringOption(parsed, 'scenario'), build, at),
        ...(sideEffects === undefined ? {} : { sideEffects }),
        ...progressFor(cli),
      });
      if (cli.io.stderr.isTTY === true && report.runs > 0) cli.io.stderr.write('\n');
      if (parsed.values.json === true) cli.json({ ...report, build: build ?? null });
      else cli.print(formatDivergenceReport(report, build, cli.style));
      return EXIT.ok;
    });
  },
};

function runIdsOption(parsed: ParsedOptions): string[] | undefined {
  const text = stringOption(parsed, 'runs');
  if (text === undefined) return undefined;
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
  at: string,
): (run: RunSummary) => Promise<ReexecutionPlan> {
  const loaded = new Map<string, Promise<{ scenario: Scenario; directory: string }>>();
  return async (run) => {
    const key = explicit ?? run.scenario ?? '';
    let found = loaded.get(key);
    if (found === undefined) loaded.set(key, (found = scenarioFor(explicit, run.scenario, run.runId)));
    const { scenario, directory } = await found;
    return {
      agent: buildOf(scenario, build ?? run.agent.build),
      world: (seed) => scenario.openWorld({ at, seed, latencyMs: 0 }),
      scenario: directory,
    };
  };
}

// A progress line only for a person watching a terminal; scripts and pipes get the report alone.
function progressFor(cli: CommandContext): { onProgress?: (done: number, total: number) => void } {
  if (cli.io.stderr.isTTY !== true) return {};
  return { onProgress: (done, total) => cli.io.stderr.write(`\rre-executed ${done}/${total}`) };
}
