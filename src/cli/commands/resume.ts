import { Command } from '@commander-js/extra-typings';
import { requireDriven } from '../../engine/index.js';
import { buildOf } from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { exitOfRun } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { latencyOption, scenarioOption, sideEffectsOption } from '../options/shared-options.js';
import { runIdValue } from '../options/value-parsers.js';
import { formatRun } from '../output/format-run.js';
import { summarizerOf } from '../../text/index.js';
import { scenarioFor } from './scenario-of-run.js';

/**
 * `forkpoint resume`: continues an interrupted run, or one the world or the
 * firewall stopped, from its last committed checkpoint, in the same run id.
 */
export function resumeCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('resume')
      .description(
        'continue an interrupted or stopped run from its last committed checkpoint, in the same run id, behind the side-effect firewall',
      )
      .usage('<run-id> [--side-effects POLICY] [--scenario DIR] [--latency MS] [--json]')
      .argument('<run-id>', 'the run to continue, e.g. 9b40c1d5', runIdValue)
      .addOption(sideEffectsOption())
      .addOption(scenarioOption())
      .addOption(latencyOption()),
  ).action(async (runId, options) => {
    const latencyMs = options.latency ?? 0;
    const { sideEffects } = options;
    await withStore(await cli.openStoreHolding(options, runId, 'write'), async (store) => {
      const engine = cli.engine(options, store);
      const run = await engine.getRunSummary(runId);
      requireDriven(run, 'resume');
      const { scenario } = await scenarioFor(options.scenario, run.scenario, runId);
      // The run's own world: one run meets one world.
      const at = run.worldAt ?? '1970-01-01';
      const result = await engine.resume({
        runId,
        agent: buildOf(scenario, run.agent.build),
        world: cli.openWorld(scenario, { at, seed: run.seed ?? cli.seed(), latencyMs }),
        ...(sideEffects === undefined ? {} : { sideEffects }),
      });
      if (options.json === true) cli.json(result);
      else cli.print(formatRun(result, cli.style, summarizerOf(scenario)));
      cli.exit(exitOfRun(result.status));
    });
  });
}
