import { existsSync } from 'node:fs';
import { assertRunId } from '../engine/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonValue } from '../json/index.js';
import type { Store } from '../store/index.js';
import { DEFAULT_DB_PATH, sqliteStore } from '../store/index.js';
import type { CliIo } from './cli-io.js';
import type { ExitCode } from './exit-codes.js';
import type { Style } from './output/style.js';
import { styleFor } from './output/style.js';
import type { OptionSpec, ParsedOptions } from './parse-options.js';
import { COMMON_OPTIONS, parseOptions, stringOption } from './parse-options.js';

/** One CLI command: its help, its options, and what it does. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  /** The synopsis after `forkpoint <name>`. */
  readonly usage: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  run(args: readonly string[], cli: CommandContext): Promise<ExitCode>;
}

/** What a command gets besides its arguments. */
export class CommandContext {
  readonly style: Style;

  constructor(readonly io: CliIo) {
    this.style = styleFor(io.stdout, io.env);
  }

  /** Parses a command's arguments with the common options added. */
  parse(args: readonly string[], options: Readonly<Record<string, OptionSpec>>): ParsedOptions {
    return parseOptions(args, { ...COMMON_OPTIONS, ...options });
  }

  /** The database path: `--db`, then `FORKPOINT_DB`, then the default. */
  dbPath(parsed: ParsedOptions): string {
    return stringOption(parsed, 'db') ?? this.io.env.FORKPOINT_DB ?? DEFAULT_DB_PATH;
  }

  /** Opens (creating when absent) the database. */
  openStore(parsed: ParsedOptions): Store {
    const synchronous = stringOption(parsed, 'synchronous') ?? 'normal';
    if (synchronous !== 'normal' && synchronous !== 'full') {
      throw new ForkpointError('USAGE', `--synchronous must be normal or full, got "${synchronous}"`);
    }
    return sqliteStore({ path: this.dbPath(parsed), synchronous: synchronous === 'full' ? 'FULL' : 'NORMAL' });
  }

  /** Opens the database only if it exists: reading commands never create one. */
  openExistingStore(parsed: ParsedOptions): Store | undefined {
    const path = this.dbPath(parsed);
    return path !== ':memory:' && !existsSync(path) ? undefined : this.openStore(parsed);
  }

  /** The one run id a command takes as its argument, checked; `example` shows how to call it. */
  runIdArgument(parsed: ParsedOptions, example: string): string {
    const [runId, extra] = parsed.positionals;
    if (runId === undefined) throw new ForkpointError('USAGE', `this command needs a run id, e.g. \`${example}\``);
    if (extra !== undefined) throw new ForkpointError('USAGE', `unexpected argument "${extra}"; see --help`);
    assertRunId(runId);
    return runId;
  }

  /** Opens the database to read a run: `RUN_NOT_FOUND`, not a new empty file, when there is none. */
  openStoreHolding(parsed: ParsedOptions, runId: string): Store {
    const store = this.openExistingStore(parsed);
    if (store === undefined) throw new ForkpointError('RUN_NOT_FOUND', `no run ${runId}: there is no database at ${this.dbPath(parsed)} yet`);
    return store;
  }

  /** Writes one JSON document to stdout. */
  json(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value as JsonValue, null, 2)}\n`);
  }

  /** Writes human text to stdout. */
  print(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Writes progress or notes to stderr, where they never mix with a JSON document. */
  note(text: string): void {
    this.io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  }
}

/** Runs `work` with a store and closes it afterwards, whatever happens. */
export async function withStore<T>(store: Store, work: (store: Store) => Promise<T> | T): Promise<T> {
  try {
    return await work(store);
  } finally {
    store.close();
  }
}
