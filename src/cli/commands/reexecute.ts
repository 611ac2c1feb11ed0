import { Command } from '@commander-js/extra-typings';
import { requireDriven } from '../../engine/index.js';
import { buildOf } from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { exitOfRun } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import {
  atOption,
  buildOption,
  latencyOption,
  scenarioOption,
  seedOption,
  sideEffectsOption,
} from '../options/shared-options.js';
import { runIdValue } from '../options/value-parsers.js';
import { formatRun } from '../output/format-run.js';
import { summarizerOf } from '../../text/index.js';
import { scenarioFor } from './scenario-of-run.js';

/** `forkpoint reexecute`: the same input against the live world at another date. A second run, not a replay. */
export function reexecuteCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('reexecute')
      .description("run a recorded run's input again against the world at DATE (a second run, not a replay)")
      .usage('<run-id> --at DATE [--side-effects POLICY] [--build NAME] [--seed N] [--scenario DIR] [--json]')
      .argument('<run-id>', 'the recorded run, e.g. 9b40c1d5', runIdValue)
      .addOption(atOption().makeOptionMandatory())
      .addOption(buildOption())
      .addOption(seedOption())
      .addOption(scenarioOption())
      .addOption(latencyOption())
      .addOption(sideEffectsOption()),
  ).action(async (runId, options) => {
    const { at, seed, sideEffects } = options;
    const latencyMs = options.latency ?? 0;
    await withStore(await cli.openStoreHolding(options, runId, 'write'), async (store) => {
      const engine = cli.engine(options, store);
      const source = await engine.getRunSummary(runId);
      requireDriven(source, 're-execute');
      const { scenario, directory } = await scenarioFor(options.scenario, source.scenario, runId);
      const result = await engine.reexecute({
        sourceRunId: runId,
        agent: buildOf(scenario, options.build ?? source.agent.build),
        world: cli.openWorld(scenario, { at, seed: cli.seed(seed), latencyMs }),
        scenario: directory,
        ...(sideEffects === undefined ? {} : { sideEffects }),
      });
      if (options.json === true) cli.json(result);
      else cli.print(formatRun(result, cli.style, summarizerOf(scenario)));
      cli.exit(exitOfRun(result.status));
    });
  });
}
