import { Command, Option } from '@commander-js/extra-typings';
import { similarRuns } from '../../workflows/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { periodBoundValue, runIdValue } from '../options/value-parsers.js';
import { formatSimilar } from '../output/format-classes.js';

/** `forkpoint similar`: is this one run or a class of runs? */
export function similarCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('similar')
      .description(
        'list the recorded runs that share a run’s failure signature, and those that took its path and ended otherwise',
      )
      .usage('<run-id> [--since DATE|TIMESTAMP] [--until DATE|TIMESTAMP] [--json]')
      .argument('<run-id>', 'the run, e.g. 9b40c1d5', runIdValue)
      .addOption(
        new Option('--since <DATE|TIMESTAMP>', 'only runs recorded at or after it (YYYY-MM-DD, or ISO 8601)').argParser(
          periodBoundValue('--since'),
        ),
      )
      .addOption(
        new Option(
          '--until <DATE|TIMESTAMP>',
          'only runs recorded strictly before it (YYYY-MM-DD, or ISO 8601)',
        ).argParser(periodBoundValue('--until')),
      ),
  ).action(async (runId, options) => {
    await withStore(await cli.openStoreHolding(options, runId, 'read'), async (open) => {
      const result = await similarRuns(cli.engine(options, open), runId, {
        ...(options.since === undefined ? {} : { since: options.since }),
        ...(options.until === undefined ? {} : { until: options.until }),
      });
      if (options.json === true) cli.json(result);
      else cli.print(formatSimilar(result, cli.style).join('\n'));
    });
    cli.exit(EXIT.ok);
  });
}
