import { Command } from '@commander-js/extra-typings';
import { compareRuns } from '../../analysis/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { pricesOption, withCommonOptions } from '../options/common-options.js';
import { runIdValue } from '../options/value-parsers.js';
import { formatComparison } from '../output/format-comparison.js';
import { summarizerFor } from './scenario-of-run.js';

/** `forkpoint compare`: two runs side by side, where they first part, and how each ended. */
export function compareCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('compare')
      .description('compare two runs step by step: the first divergence and both outcomes')
      .usage('<run-a> <run-b> [--prices FILE] [--json]')
      .argument('<run-a>', 'a run, e.g. 9b40c1d5', runIdValue)
      .argument('<run-b>', 'the run to set beside it', runIdValue)
      .addOption(pricesOption()),
  ).action(async (first, second, options) => {
    await withStore(await cli.openStoreHolding(options, first, 'read'), async (open) => {
      const engine = cli.engine(options, open);
      const a = await engine.getRun(first);
      const b = await engine.getRun(second);
      for (const run of [a, b]) {
        if (run.retention.purge !== null) {
          throw new ForkpointError(
            'CASSETTE_EXPIRED',
            `run ${run.runId} keeps no steps to compare: its full tier was removed at ${run.retention.purge.at}; \`forkpoint show ${run.runId}\` shows its summary`,
            { details: { runId: run.runId } },
          );
        }
      }
      const summarizer = await summarizerFor(a.scenario ?? b.scenario);
      const comparison = compareRuns(a, b, (step) => summarizer.step(step));
      if (options.json === true) cli.json(comparison);
      else cli.print(formatComparison(comparison, cli.style, summarizer));
    });
    cli.exit(EXIT.ok);
  });
}
