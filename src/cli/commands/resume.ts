import { buildOf } from '../../scenario/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatRun } from '../output/format-run.js';
import { integerOption, stringOption } from '../parse-options.js';
import { SHARED_OPTIONS, sideEffectsOption } from '../shared-options.js';
import { printCommandHelp } from './help.js';
import { scenarioFor } from './scenario-of-run.js';

/**
 * `forkpoint resume`: continues an interrupted run, or one the world or the
 * firewall stopped, from its last committed checkpoint, in the same run id.
 */
export const resumeCommand: Command = {
  name: 'resume',
  summary:
    'continue an interrupted or stopped run from its last committed checkpoint, in the same run id, behind the side-effect firewall',
  usage: '<run-id> [--side-effects POLICY] [--scenario DIR] [--latency MS] [--json]',
  options: {
    'side-effects': SHARED_OPTIONS['side-effects'],
    scenario: SHARED_OPTIONS.scenario,
    latency: SHARED_OPTIONS.latency,
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const runId = cli.runIdArgument(parsed, 'forkpoint resume 9b40c1d5');
    const latencyMs = integerOption(parsed, 'latency', 0, 60_000) ?? 0;
    const sideEffects = sideEffectsOption(parsed);
    return withStore(cli.openStoreHolding(parsed, runId, 'write'), async (store) => {
      const engine = cli.engine(parsed, store);
      const run = await engine.getRunSummary(runId);
      const { scenario } = await scenarioFor(stringOption(parsed, 'scenario'), run.scenario, runId);
      const at = run.at ?? '1970-01-01';
      const result = await engine.resume({
        runId,
        agent: buildOf(scenario, run.agent.build),
        world: (seed) => scenario.openWorld({ at, seed, latencyMs }),
        ...(sideEffects === undefined ? {} : { sideEffects }),
      });
      if (parsed.values.json === true) cli.json(result);
      else cli.print(formatRun(result, cli.style, scenario));
      return result.status === 'completed' ? EXIT.ok : EXIT.negative;
    });
  },
};
