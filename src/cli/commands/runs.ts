import type { RunPageQuery } from '../../engine/index.js';
import { assertRunId, DEFAULT_PAGE_SIZE } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { RunMode, RunStatus } from '../../vocabulary/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatRuns } from '../output/format-runs.js';
import type { ParsedOptions } from '../parse-options.js';
import { integerOption, stringOption } from '../parse-options.js';
import { printCommandHelp } from './help.js';

const MODES: readonly RunMode[] = [
  'record',
  'replay:strict',
  'replay:fidelity',
  'replay:structural',
  'reexecution',
  'fork',
];
const STATUSES: readonly RunStatus[] = ['running', 'completed', 'failed', 'diverged', 'interrupted'];
// A page is held in memory and printed at once; a bigger listing is paged with --before.
const MAX_LIMIT = 10_000;

/**
 * `forkpoint runs`: one page of runs, newest first, filtered. `--json` prints
 * the page as one document, `{ runs, next }`, where `next` is the `--before`
 * cursor of the following page (null on the last one).
 */
export const runsCommand: Command = {
  name: 'runs',
  summary: 'list the runs in the database, newest first, a page at a time',
  usage:
    '[--limit N] [--since DATE|TIMESTAMP] [--mode MODE] [--status STATUS] [--build NAME] [--before RUN_ID] [--json]',
  options: {
    limit: {
      type: 'string',
      value: 'N',
      description: `runs on the page (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_LIMIT})`,
    },
    since: {
      type: 'string',
      value: 'DATE|TIMESTAMP',
      description: 'only runs created at or after it (YYYY-MM-DD, or ISO 8601)',
    },
    mode: { type: 'string', value: 'MODE', description: `only runs of this mode: ${MODES.join(', ')}` },
    status: { type: 'string', value: 'STATUS', description: `only runs with this status: ${STATUSES.join(', ')}` },
    build: { type: 'string', value: 'NAME', description: 'only runs of this agent build' },
    before: {
      type: 'string',
      value: 'RUN_ID',
      description: 'the page after this run (the `next` of the previous page)',
    },
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    if (parsed.positionals.length > 0)
      throw new ForkpointError('USAGE', `runs takes no arguments, got "${parsed.positionals[0]}"`);
    const query = pageQuery(parsed);
    const store = cli.openExistingStore(parsed, 'read');
    const page =
      store === undefined
        ? { runs: [], next: null }
        : await withStore(store, (open) => cli.engine(parsed, open).runPage(query));
    if (parsed.values.json === true) cli.json(page);
    else cli.print(formatRuns(page, cli.style, page.next === null ? null : nextPageCommand(args, page.next)));
    return EXIT.ok;
  },
};

function pageQuery(parsed: ParsedOptions): RunPageQuery {
  const since = stringOption(parsed, 'since');
  const mode = stringOption(parsed, 'mode');
  const status = stringOption(parsed, 'status');
  const build = stringOption(parsed, 'build');
  const before = stringOption(parsed, 'before');
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode))
    throw new ForkpointError('USAGE', `--mode must be one of ${MODES.join(', ')}, got "${mode}"`);
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) {
    throw new ForkpointError('USAGE', `--status must be one of ${STATUSES.join(', ')}, got "${status}"`);
  }
  if (before !== undefined) assertRunId(before);
  return {
    limit: integerOption(parsed, 'limit', 1, MAX_LIMIT) ?? DEFAULT_PAGE_SIZE,
    ...(since === undefined ? {} : { since: sinceTimestamp(since) }),
    ...(mode === undefined ? {} : { mode: mode as RunMode }),
    ...(status === undefined ? {} : { status: status as RunStatus }),
    ...(build === undefined ? {} : { build }),
    ...(before === undefined ? {} : { before }),
  };
}

// Runs are stamped in UTC ISO form, compared as text: a date means its first instant, UTC.
function sinceTimestamp(text: string): string {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(text) || Number.isNaN(date.getTime())) {
    throw new ForkpointError(
      'USAGE',
      `--since must be a date (YYYY-MM-DD) or an ISO 8601 timestamp such as 2026-03-07T10:00:00Z, got "${text}"`,
    );
  }
  return date.toISOString();
}

// The same command with the cursor moved on, so that the hint can be pasted as it is.
function nextPageCommand(args: readonly string[], next: string): string {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--before') i++;
    else if (!arg.startsWith('--before=')) kept.push(arg);
  }
  const quoted = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);
  return ['forkpoint runs', ...kept.map(quoted), '--before', next].join(' ');
}
