import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { dirname } from 'node:path';
import type { Engine } from '../engine/index.js';
import { createEngine } from '../engine/index.js';
import { ForkpointError } from '../errors/index.js';
import type { Scenario, WorldOptions } from '../scenario/index.js';
import type { Store } from '../store/index.js';
import type { World } from '../world/index.js';
import { DEFAULT_DB_PATH, openTarget, parseStoreUrl, storeExists, storeLabel } from '../store/index.js';
import type { CliIo } from './cli-io.js';
import type { ExitCode } from './exit-codes.js';
import { EXIT } from './exit-codes.js';
import type { CommonOptions } from './options/common-options.js';
import type { Style } from '../text/index.js';
import { styleFor } from '../text/index.js';
import type { PriceTable } from '../pricing/index.js';
import { cliPriceLookup, userPriceTable } from './price-tables.js';

/** What a command does with the database: only `read` it (nothing about the file changes), or `write` it. */
export type Access = 'read' | 'write';

/**
 * What every command gets besides its options: the streams, the style, the
 * database and the engine over it, and where its exit status is kept.
 */
export class CommandContext {
  readonly style: Style;
  /** The exit status the command's action settled on. */
  exitCode: ExitCode = EXIT.ok;
  /** The command being run, once the parse has reached it. */
  command: CommandUnknownOpts | undefined;
  private userPrices: { readonly from: string | undefined; readonly table: PriceTable | undefined } | undefined;
  private readonly worlds: World[] = [];

  /** `argv` is the words the CLI was given, for the hints that repeat them (`runs` prints its next page's command). */
  constructor(
    readonly io: CliIo,
    readonly argv: readonly string[] = [],
  ) {
    this.style = styleFor(io.stdout, io.env);
  }

  /**
   * Opens a scenario's world for this command; {@link closeWorlds} closes it
   * once the command has ended (a world may hold a local emulator).
   */
  openWorld(scenario: Scenario, options: WorldOptions): World {
    const world = scenario.openWorld(options);
    this.worlds.push(world);
    return world;
  }

  /** Closes every world the command opened, newest first. */
  async closeWorlds(): Promise<void> {
    for (const world of this.worlds.splice(0).reverse()) await world.close?.();
  }

  /**
   * The seed a simulated world a command opens samples with: the one given
   * (`--seed`), or a fresh one from the injected randomness.
   */
  seed(given?: number): number {
    if (given !== undefined) return given;
    return this.io.random === undefined ? randomInt(0, 0x100000000) : Math.floor(this.io.random() * 0x100000000);
  }

  /** The store URL or path as given: `--db`, then `FORKPOINT_DB`, then the default. */
  dbPath(options: CommonOptions): string {
    return options.db ?? this.io.env.FORKPOINT_DB ?? DEFAULT_DB_PATH;
  }

  /** The store `--db` names, for messages, as the store names itself: a URL's password never shows. */
  dbLabel(options: CommonOptions): string {
    return storeLabel(parseStoreUrl(this.dbPath(options)));
  }

  /**
   * What is missing when the store at `url` does not exist, for messages:
   * `database at PATH` for a SQLite file, `forkpoint store at URL` for a
   * PostgreSQL schema without forkpoint's tables (the database itself is there).
   */
  missingStore(url: string): string {
    const target = parseStoreUrl(url);
    return `${target.kind === 'sqlite' ? 'database' : 'forkpoint store'} at ${storeLabel(target)}`;
  }

  /**
   * The user's own price table (`--prices`, else `$FORKPOINT_PRICES`), read
   * once. Every store is opened after it, so that a bad table writes nothing.
   */
  prices(options: CommonOptions): PriceTable | undefined {
    const from = options.prices ?? this.io.env.FORKPOINT_PRICES;
    if (this.userPrices === undefined || this.userPrices.from !== from)
      this.userPrices = { from, table: userPriceTable(options.prices, this.io.env) };
    return this.userPrices.table;
  }

  /**
   * The engine over `store`, with the clock of `--now`, the owner lease of
   * `FORKPOINT_LEASE_MS` when set (how soon a dead recorder's run reads as
   * interrupted; default 30 s), and runs priced by forkpoint's table, their
   * scenario's and the user's own (see `cliPriceLookup`). `clock`, when
   * given, stands in for `--now`: a batch over a period stamps each run with
   * its own day.
   */
  engine(options: CommonOptions, store: Store, clock?: () => Date): Engine {
    const lease = this.io.env.FORKPOINT_LEASE_MS;
    if (lease !== undefined && !/^[1-9]\d{2,7}$/.test(lease)) {
      throw new ForkpointError(
        'USAGE',
        `FORKPOINT_LEASE_MS must be a whole number of milliseconds from 100 to 99999999, got "${lease}"`,
      );
    }
    const { now } = options;
    return createEngine({
      store,
      clock: clock ?? (now === undefined ? () => new Date() : () => new Date(now)),
      ...(lease === undefined ? {} : { leaseMs: Number(lease) }),
      prices: cliPriceLookup(this.prices(options)),
    });
  }

  /**
   * Opens the database `--db` names (a SQLite path or a PostgreSQL URL): to
   * `write` (creating it when absent, migrating it when old), or only to
   * `read`, which changes nothing about it.
   */
  async openStore(options: CommonOptions, access: Access = 'write'): Promise<Store> {
    return await this.openStoreAt(this.dbPath(options), options, access);
  }

  /** Opens the database only if it exists: commands that need one never create it. */
  async openExistingStore(options: CommonOptions, access: Access): Promise<Store | undefined> {
    return await this.openExistingStoreAt(this.dbPath(options), options, access);
  }

  /** Opens the database to work on a run: `RUN_NOT_FOUND`, not a new empty store, when there is none. */
  async openStoreHolding(options: CommonOptions, runId: string, access: Access): Promise<Store> {
    const store = await this.openExistingStore(options, access);
    if (store === undefined) {
      const path = this.dbLabel(options);
      throw new ForkpointError(
        'RUN_NOT_FOUND',
        `no run ${runId}: there is no ${this.missingStore(this.dbPath(options))} yet`,
        {
          details: { runId, path },
        },
      );
    }
    return store;
  }

  /** Opens the store at `url` (see {@link openStore}); `copy` names two. */
  async openStoreAt(url: string, options: CommonOptions, access: Access = 'write'): Promise<Store> {
    // A bad price table is refused before any store opens: no file is made or migrated for a command that fails.
    this.prices(options);
    const target = parseStoreUrl(url);
    // The default database lives in forkpoint's own folder, made on first use from whatever folder this runs in;
    // a path the user gave is theirs, and a missing folder in it is an error.
    if (access === 'write' && target.kind === 'sqlite' && target.path === DEFAULT_DB_PATH) {
      const folder = dirname(target.path);
      if (!existsSync(folder)) mkdirSync(folder, { recursive: true });
    }
    const synchronous = options.synchronous === 'full' ? 'FULL' : 'NORMAL';
    return await openTarget(target, { synchronous, readOnly: access === 'read' });
  }

  /** Opens the store at `url` only if it exists (see {@link openExistingStore}). */
  async openExistingStoreAt(url: string, options: CommonOptions, access: Access): Promise<Store | undefined> {
    this.prices(options);
    return (await storeExists(parseStoreUrl(url))) ? await this.openStoreAt(url, options, access) : undefined;
  }

  /** Writes one JSON document to stdout. */
  json(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** Writes human text to stdout. */
  print(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Writes progress or notes to stderr, where they never mix with a JSON document. */
  note(text: string): void {
    this.io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Keeps the exit status a command's action settled on. */
  exit(code: ExitCode): void {
    this.exitCode = code;
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
