import { Command, Option } from '@commander-js/extra-typings';
import type { RunPageQuery } from '../../engine/index.js';
import { DEFAULT_PAGE_SIZE } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { scenarioReference } from '../../scenario/index.js';
import { redactStoreUrl } from '../../store/index.js';
import { RUN_MODES, RUN_STATUSES } from '../../vocabulary/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { pricesOption, withCommonOptions } from '../options/common-options.js';
import { integerOption, periodBoundValue, runIdOption } from '../options/value-parsers.js';
import { formatRuns } from '../output/format-runs.js';

// A page is held in memory and printed at once; a bigger listing is paged with --before.
const MAX_LIMIT = 10_000;

/**
 * `forkpoint runs`: one page of runs, newest first, filtered. `--json` prints
 * the page as one document, `{ runs, next }`, where `next` is the `--before`
 * cursor of the following page (null on the last one).
 */
export function runsCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('runs')
      .description('list the runs in the database, newest first, a page at a time')
      .usage(
        '[--limit N] [--since DATE|TIMESTAMP] [--until DATE|TIMESTAMP] [--mode MODE] [--status STATUS] [--build NAME] [--scenario DIR] [--before RUN_ID] [--prices FILE] [--json]',
      )
      .addOption(
        integerOption(
          '--limit <N>',
          `runs on the page (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_LIMIT})`,
          1,
          MAX_LIMIT,
        ),
      )
      .addOption(
        new Option('--since <DATE|TIMESTAMP>', 'only runs created at or after it (YYYY-MM-DD, or ISO 8601)').argParser(
          periodBoundValue('--since'),
        ),
      )
      .addOption(
        new Option(
          '--until <DATE|TIMESTAMP>',
          'only runs created before it (a date: before that day begins, UTC)',
        ).argParser(periodBoundValue('--until')),
      )
      .addOption(new Option('--mode <MODE>', 'only runs of this mode').choices(RUN_MODES))
      .addOption(new Option('--status <STATUS>', 'only runs with this status').choices(RUN_STATUSES))
      .addOption(new Option('--build <NAME>', 'only runs of this agent build'))
      .addOption(
        new Option(
          '--scenario <DIR>',
          'only runs recorded from this scenario directory, as `record` was given it',
        ).argParser(scenarioOf),
      )
      .addOption(runIdOption('--before <RUN_ID>', 'the page after this run (the `next` of the previous page)'))
      .addOption(pricesOption()),
  ).action(async (options) => {
    const query: RunPageQuery = {
      limit: options.limit ?? DEFAULT_PAGE_SIZE,
      ...(options.since === undefined ? {} : { since: options.since }),
      ...(options.until === undefined ? {} : { until: options.until }),
      ...(options.mode === undefined ? {} : { mode: options.mode }),
      ...(options.status === undefined ? {} : { status: options.status }),
      ...(options.build === undefined ? {} : { build: options.build }),
      ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
      ...(options.before === undefined ? {} : { before: options.before }),
    };
    const store = await cli.openExistingStore(options, 'read');
    const page =
      store === undefined
        ? { runs: [], next: null }
        : await withStore(store, async (open) => await cli.engine(options, open).runPage(query));
    if (options.json === true) cli.json(page);
    else cli.print(formatRuns(page, cli.style, page.next === null ? null : nextPageCommand(cli.argv, page.next)));
    cli.exit(EXIT.ok);
  });
}

// A run stores its scenario as record found it (a built-in by its path from the package, another by its
// absolute path), so the directory is named the same way here: `./scenarios/claims-triage/` from any folder
// finds the runs of `scenarios/claims-triage`. A directory that is gone still names its runs by that path.
function scenarioOf(text: string): string {
  if (text.trim() === '') throw new ForkpointError('USAGE', '--scenario must name a scenario directory, got ""');
  return scenarioReference(text);
}

// The same command with the cursor moved on, so that the hint can be pasted as it is: the words given, as given,
// but for a store URL's password, which is never printed (give it through FORKPOINT_DB or PGPASSWORD instead).
function nextPageCommand(argv: readonly string[], next: string): string {
  const kept: string[] = [];
  const args = argv.slice(argv.indexOf('runs') + 1);
  let skip = false;
  for (const [at, arg] of args.entries()) {
    if (skip) skip = false;
    else if (arg === '--before') skip = true;
    else if (arg.startsWith('--db=')) kept.push(`--db=${redactStoreUrl(arg.slice('--db='.length))}`);
    else if (!arg.startsWith('--before=')) kept.push(args[at - 1] === '--db' ? redactStoreUrl(arg) : arg);
  }
  const quoted = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);
  return ['forkpoint runs', ...kept.map(quoted), '--before', next].join(' ');
}
