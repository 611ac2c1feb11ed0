import { Command, Option } from '@commander-js/extra-typings';
import { ForkpointError } from '../../errors/index.js';
import { DEFAULT_UI_PORT, startUiServer } from '../../web/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { pricesOption, withCommonOptions } from '../options/common-options.js';
import { integerOption } from '../options/value-parsers.js';
import { cliMessage } from '../flag-hints.js';
import { runWordsFor } from '../run-words.js';

/**
 * `forkpoint ui`: the web view of a store, on loopback, until stopped. It
 * only reads: no page records, replays, forks or removes anything.
 */
export function uiCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('ui')
      .description(
        'serve a local web view of the runs, their steps, lineage and comparisons (read-only, loopback only)',
      )
      .usage('[--port N] [--host ADDRESS [--allow-remote]] [--db PATH|URL] [--prices FILE]')
      .addOption(
        integerOption(
          '--port <N>',
          `the port to listen on (default ${DEFAULT_UI_PORT}; 0 picks a free one)`,
          0,
          65_535,
        ),
      )
      .addOption(
        new Option(
          '--host <ADDRESS>',
          'the address to listen on (default 127.0.0.1; loopback only without --allow-remote)',
        ),
      )
      .addOption(
        new Option('--allow-remote', 'listen on an address other than loopback: whoever reaches it sees every payload'),
      )
      .addOption(pricesOption()),
  ).action(async (options) => {
    const untilStopped = cli.io.untilStopped;
    if (untilStopped === undefined) throw new ForkpointError('INTERNAL', 'forkpoint ui needs a process to serve from');
    const store = await cli.openExistingStore(options, 'read');
    if (store === undefined)
      throw new ForkpointError(
        'RUN_NOT_FOUND',
        `nothing to show: there is no ${cli.missingStore(cli.dbPath(options))} yet; \`npm start\` records the demo's runs`,
        {
          details: { path: cli.dbLabel(options) },
        },
      );
    await withStore(store, async (open) => {
      const server = await startUiServer({
        engine: cli.engine(options, open),
        words: runWordsFor,
        ...(options.port === undefined ? {} : { port: options.port }),
        ...(options.host === undefined ? {} : { host: options.host }),
        allowRemote: options.allowRemote === true,
        describeError: cliMessage,
        onInternalError: (error) =>
          cli.io.stderr.write(
            `forkpoint ui: INTERNAL: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
          ),
      });
      cli.print(`forkpoint ui: ${server.url} · ${cli.dbLabel(options)} · read-only; Ctrl-C stops it`);
      await untilStopped();
      await server.close();
    });
    cli.exit(EXIT.ok);
  });
}
