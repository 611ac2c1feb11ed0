import { assertWorldDate } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { buildOf } from '../../scenario/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatRun } from '../output/format-run.js';
import { integerOption, stringOption } from '../parse-options.js';
import { SHARED_OPTIONS, sideEffectsOption } from '../shared-options.js';
import { printCommandHelp } from './help.js';
import { scenarioFor } from './scenario-of-run.js';

/** `forkpoint reexecute`: the same input against the live world at another date. A second run, not a replay. */
export const reexecuteCommand: Command = {
  name: 'reexecute',
  summary: "run a recorded run's input again against the world at DATE (a second run, not a replay)",
  usage: '<run-id> --at DATE [--side-effects POLICY] [--build NAME] [--seed N] [--scenario DIR] [--json]',
  options: {
    at: SHARED_OPTIONS.at,
    build: SHARED_OPTIONS.build,
    seed: SHARED_OPTIONS.seed,
    scenario: SHARED_OPTIONS.scenario,
    latency: SHARED_OPTIONS.latency,
    'side-effects': SHARED_OPTIONS['side-effects'],
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const runId = cli.runIdArgument(parsed, 'forkpoint reexecute 9b40c1d5 --at 2026-03-09');
    const at = stringOption(parsed, 'at');
    if (at === undefined)
      throw new ForkpointError('USAGE', 'reexecute needs --at DATE, the day of the world to run against');
    assertWorldDate(at);
    const seed = integerOption(parsed, 'seed', 0, 0xffffffff);
    const latencyMs = integerOption(parsed, 'latency', 0, 60_000) ?? 0;
    const sideEffects = sideEffectsOption(parsed);
    return withStore(cli.openStoreHolding(parsed, runId, 'write'), async (store) => {
      const engine = cli.engine(parsed, store);
      const source = await engine.getRunSummary(runId);
      const { scenario, directory } = await scenarioFor(stringOption(parsed, 'scenario'), source.scenario, runId);
      const result = await engine.reexecute({
        sourceRunId: runId,
        agent: buildOf(scenario, stringOption(parsed, 'build') ?? source.agent.build),
        at,
        world: (worldSeed) => scenario.openWorld({ at, seed: worldSeed, latencyMs }),
        scenario: directory,
        ...(sideEffects === undefined ? {} : { sideEffects }),
        ...(seed === undefined ? {} : { seed }),
      });
      if (parsed.values.json === true) cli.json(result);
      else cli.print(formatRun(result, cli.style, scenario));
      return result.status === 'completed' ? EXIT.ok : EXIT.negative;
    });
  },
};
