import { Command } from '@commander-js/extra-typings';
import { compareDocument } from '../../web/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { pricesOption, withCommonOptions } from '../options/common-options.js';
import { runIdValue } from '../options/value-parsers.js';
import { formatComparison } from '../output/format-comparison.js';
import type { Summarizer } from '../../text/index.js';
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
      let summarizer: Summarizer | undefined;
      const comparison = await compareDocument(cli.engine(options, open), first, second, async (scenario) => {
        const chosen = (summarizer = await summarizerFor(scenario));
        return (step) => chosen.step(step);
      });
      if (options.json === true) cli.json(comparison);
      else cli.print(formatComparison(comparison, cli.style, summarizer ?? (await summarizerFor(null))));
    });
    cli.exit(EXIT.ok);
  });
}
