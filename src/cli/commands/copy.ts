import { Command, Option } from '@commander-js/extra-typings';
import { ForkpointError } from '../../errors/index.js';
import { ownerCheck, resolveEngineDeps } from '../../engine/index.js';
import type { CopyTarget } from '../../store/index.js';
import { copyRuns, isSameStore, parseStoreUrl, storeLabel } from '../../store/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { runIdValue } from '../options/value-parsers.js';
import { formatCopy } from '../output/format-copy.js';

/**
 * `forkpoint copy`: moves runs between two stores, any direction (a SQLite
 * file to PostgreSQL, back, or file to file), with their ids, lineage, tiers
 * and expiries, rows and blobs as stored. A run the target holds already, the
 * same, is skipped; a run still being recorded is refused.
 */
export function copyCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('copy')
      .description(
        'copy runs from one store to another (SQLite file or postgres:// URL, either way), with their lineage and tiers',
      )
      .usage('--to PATH|URL [--from PATH|URL] [--run ID ...] [--json]')
      .addOption(
        new Option(
          '--from <PATH|URL>',
          'the store to copy from (default: --db, $FORKPOINT_DB or checkpoints/forkpoint.db)',
        ),
      )
      .addOption(
        new Option('--to <PATH|URL>', 'the store to copy to (made if it does not exist)').makeOptionMandatory(),
      )
      .addOption(
        new Option(
          '--run <ID>',
          'copy this run and the runs it was made from (repeat it for more; default: every run)',
        ).argParser((text, previous: readonly string[] | undefined) => [...(previous ?? []), runIdValue(text)]),
      ),
  ).action(async (options) => {
    const fromUrl = options.from ?? cli.dbPath(options);
    const [source, destination] = [parseStoreUrl(fromUrl), parseStoreUrl(options.to)];
    const [from, to] = [storeLabel(source), storeLabel(destination)];
    if (isSameStore(source, destination))
      throw new ForkpointError('USAGE', `--from and --to name the same store (${to}); copy to another one`);
    const opened = await cli.openExistingStoreAt(fromUrl, options, 'read');
    if (opened === undefined)
      throw new ForkpointError('RUN_NOT_FOUND', `there is no ${cli.missingStore(fromUrl)}; nothing to copy`, {
        details: { path: from },
      });
    const target: CopyTarget = {
      location: to,
      openExisting: () => cli.openExistingStoreAt(options.to, options, 'read'),
      open: () => cli.openStoreAt(options.to, options, 'write'),
    };
    const report = await withStore(opened, (open) =>
      copyRuns(open, target, {
        ...(options.run === undefined ? {} : { runIds: options.run }),
        isOwnerAlive: ownerCheck(resolveEngineDeps({ store: open })),
      }),
    );
    cli.exit(EXIT.ok);
    if (options.json === true) cli.json({ mode: 'copy', from, to, ...report });
    else cli.print(formatCopy(report, from, to, cli.style));
  });
}
