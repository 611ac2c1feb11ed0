import { Command, Option } from '@commander-js/extra-typings';
import { RUN_STATUSES } from '../../vocabulary/index.js';
import { runClasses } from '../../workflows/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { pricesOption, withCommonOptions } from '../options/common-options.js';
import { periodBoundValue } from '../options/value-parsers.js';
import { formatClasses } from '../output/format-classes.js';

// A run waiting for a person's approval has not ended either: it has no signature, so no class.
const ENDED = RUN_STATUSES.filter(
  (status) => status !== 'running' && status !== 'interrupted' && status !== 'awaiting-approval',
);

/** `forkpoint classes`: every class of recorded runs in a period, by size. */
export function classesCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('classes')
      .description(
        'list every class of recorded runs (runs with one failure signature) by size, with an example of each',
      )
      .usage(`[--since DATE|TIMESTAMP] [--until DATE|TIMESTAMP] [--status ${ENDED.join('|')}] [--prices FILE] [--json]`)
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
      )
      .addOption(new Option('--status <STATUS>', 'only the classes of runs that ended so').choices(ENDED))
      .addOption(pricesOption()),
  ).action(async (options) => {
    await withStore(await cli.openStore(options), async (open) => {
      const result = await runClasses(cli.engine(options, open), {
        ...(options.since === undefined ? {} : { since: options.since }),
        ...(options.until === undefined ? {} : { until: options.until }),
        ...(options.status === undefined ? {} : { status: options.status }),
      });
      if (options.json === true) cli.json(result);
      else cli.print(formatClasses(result, cli.style).join('\n'));
    });
    cli.exit(EXIT.ok);
  });
}
