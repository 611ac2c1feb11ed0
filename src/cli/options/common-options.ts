import type { Command, OptionValues } from '@commander-js/extra-typings';
import { Option } from '@commander-js/extra-typings';
import { timestampValue } from './value-parsers.js';

/** The options every command takes, as parsed. */
export interface CommonOptions {
  readonly db?: string | undefined;
  readonly synchronous?: 'normal' | 'full' | undefined;
  readonly now?: Date | undefined;
  readonly json?: true | undefined;
  /** A price table file, on the commands that show costs (`--prices`); the others read `$FORKPOINT_PRICES`. */
  readonly prices?: string | undefined;
}

/** `--prices FILE`, for the commands that show what runs cost. */
export function pricesOption() {
  return new Option(
    '--prices <FILE>',
    "price runs by this table (JSON, USD per million tokens) over forkpoint's own (default $FORKPOINT_PRICES)",
  );
}

/** Adds the options every command takes, after its own, so that help lists them last. */
export function withCommonOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return command
    .addOption(
      new Option(
        '--db <PATH|URL>',
        'the store: a SQLite file, or a postgres:// URL (default checkpoints/forkpoint.db, or $FORKPOINT_DB)',
      ),
    )
    .addOption(
      new Option(
        '--synchronous <LEVEL>',
        'durability of each commit: normal (default; a killed process loses nothing) or full (also survives power loss, slower); on PostgreSQL, synchronous_commit off or on',
      ).choices(['normal', 'full'] as const),
    )
    .addOption(
      new Option(
        '--now <TIMESTAMP>',
        'the clock, ISO 8601 (default: now): stamps runs and decides what has expired',
      ).argParser(timestampValue('--now', '2026-03-07T10:00:00Z')),
    )
    .addOption(new Option('--json', 'print exactly one JSON document on stdout'));
}
