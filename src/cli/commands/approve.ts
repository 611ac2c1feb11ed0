import { Command, Option } from '@commander-js/extra-typings';
import { ForkpointError } from '../../errors/index.js';
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

const REQUEST_HASH = /^[0-9a-f]{16}$/;

/**
 * `forkpoint approve`: a person's answer to the approval a run waits for,
 * stored as a step of its own bound to the exact call, and the run goes on.
 */
export function approveCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('approve')
      .description(
        'answer the approval a run waits for (approve, or --reject with a reason) and let it go on: the answer is a step of its own, bound to the exact call',
      )
      .usage('<run-id> [--reject] [--reason TEXT] [--by NAME] [--call HASH] [--side-effects POLICY] [--json]')
      .argument('<run-id>', 'the run waiting for an approval, e.g. 9b40c1d5', runIdValue)
      .addOption(new Option('--reject', 'reject the call: it is never made, and the model is told why'))
      .addOption(new Option('--reason <TEXT>', 'why, in your words; stored with the answer'))
      .addOption(new Option('--by <NAME>', 'who answers (default: $FORKPOINT_USER, then $USER)'))
      .addOption(
        new Option(
          '--call <HASH>',
          'the request hash of the call you reviewed, as `show` prints it: the answer applies only to that call',
        ),
      )
      .addOption(sideEffectsOption())
      .addOption(scenarioOption())
      .addOption(latencyOption()),
  ).action(async (runId, options) => {
    const by = options.by ?? cli.io.env.FORKPOINT_USER ?? cli.io.env.USER ?? cli.io.env.LOGNAME;
    if (by === undefined || by.trim() === '')
      throw new ForkpointError('USAGE', 'say who answers with --by NAME (or set FORKPOINT_USER)');
    const requestHash = options.call;
    if (requestHash !== undefined && !REQUEST_HASH.test(requestHash))
      throw new ForkpointError('USAGE', `--call takes a request hash of 16 hex characters, got "${requestHash}"`);
    const { sideEffects } = options;
    await withStore(await cli.openStoreHolding(options, runId, 'write'), async (store) => {
      const engine = cli.engine(options, store);
      const run = await engine.getRunSummary(runId);
      const { scenario } = await scenarioFor(options.scenario, run.scenario, runId);
      const result = await engine.approve({
        runId,
        agent: buildOf(scenario, run.agent.build),
        // The run's own world: one run meets one world.
        world: cli.openWorld(scenario, {
          at: run.worldAt ?? '1970-01-01',
          seed: run.seed ?? cli.seed(),
          latencyMs: options.latency ?? 0,
        }),
        approved: options.reject !== true,
        by,
        ...(options.reason === undefined ? {} : { note: options.reason }),
        ...(requestHash === undefined ? {} : { requestHash }),
        ...(sideEffects === undefined ? {} : { sideEffects }),
      });
      if (options.json === true) cli.json(result);
      else cli.print(formatRun(result, cli.style, summarizerOf(scenario)));
      // It may wait again, for the next call that needs an answer: that is no failure either.
      cli.exit(exitOfRun(result.status));
    });
  });
}
