import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Engine } from '../engine/index.js';
import { assertRunId, createEngine } from '../engine/index.js';
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

/** What a command does with the database: only `read` it (nothing about the file changes), or `write` it. */
export type Access = 'read' | 'write';

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

  /** The clock: `--now` fixed, or the real one. */
  clock(parsed: ParsedOptions): () => Date {
    const now = stringOption(parsed, 'now');
    if (now === undefined) return () => new Date();
    const fixed = new Date(now);
    if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(now) || Number.isNaN(fixed.getTime())) {
      throw new ForkpointError(
        'USAGE',
        `--now must be an ISO 8601 timestamp such as 2026-03-07T10:00:00Z, got "${now}"`,
      );
    }
    return () => new Date(fixed);
  }

  /**
   * The engine over `store`, with the clock of `--now`, and the owner lease of
   * `FORKPOINT_LEASE_MS` when set (how soon a dead recorder's run reads as
   * interrupted; default 30 s).
   */
  engine(parsed: ParsedOptions, store: Store): Engine {
    const lease = this.io.env.FORKPOINT_LEASE_MS;
    if (lease !== undefined && !/^[1-9]\d{2,7}$/.test(lease)) {
      throw new ForkpointError(
        'USAGE',
        `FORKPOINT_LEASE_MS must be a whole number of milliseconds from 100 to 99999999, got "${lease}"`,
      );
    }
    return createEngine({
      store,
      clock: this.clock(parsed),
      ...(lease === undefined ? {} : { leaseMs: Number(lease) }),
    });
  }

  /**
   * Opens the database: to `write` (creating it when absent, migrating it when
   * old), or only to `read`, which changes nothing about the file.
   */
  openStore(parsed: ParsedOptions, access: Access = 'write'): Store {
    const synchronous = stringOption(parsed, 'synchronous') ?? 'normal';
    if (synchronous !== 'normal' && synchronous !== 'full') {
      throw new ForkpointError('USAGE', `--synchronous must be normal or full, got "${synchronous}"`);
    }
    const path = this.dbPath(parsed);
    // The default database lives in forkpoint's own folder, made on first use from whatever folder this runs in;
    // a path the user gave is theirs, and a missing folder in it is an error.
    if (access === 'write' && path === DEFAULT_DB_PATH && !existsSync(dirname(path)))
      mkdirSync(dirname(path), { recursive: true });
    return sqliteStore({ path, synchronous: synchronous === 'full' ? 'FULL' : 'NORMAL', readOnly: access === 'read' });
  }

  /** Opens the database only if it exists: commands that need one never create it. */
  openExistingStore(parsed: ParsedOptions, access: Access): Store | undefined {
    const path = this.dbPath(parsed);
    return path !== ':memory:' && !existsSync(path) ? undefined : this.openStore(parsed, access);
  }

  /** The one run id a command takes as its argument, checked; `example` shows how to call it. */
  runIdArgument(parsed: ParsedOptions, example: string): string {
    const [runId, extra] = parsed.positionals;
    if (runId === undefined) throw new ForkpointError('USAGE', `this command needs a run id, e.g. \`${example}\``);
    if (extra !== undefined) throw new ForkpointError('USAGE', `unexpected argument "${extra}"; see --help`);
    assertRunId(runId);
    return runId;
  }

  /** Opens the database to work on a run: `RUN_NOT_FOUND`, not a new empty file, when there is none. */
  openStoreHolding(parsed: ParsedOptions, runId: string, access: Access): Store {
    const store = this.openExistingStore(parsed, access);
    if (store === undefined)
      throw new ForkpointError('RUN_NOT_FOUND', `no run ${runId}: there is no database at ${this.dbPath(parsed)} yet`);
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
    await store.close();
  }
}
