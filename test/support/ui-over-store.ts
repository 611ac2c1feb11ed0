import { cliPriceLookup } from '../../src/cli/price-tables.js';
import { runWordsFor } from '../../src/cli/run-words.js';
import type { Engine } from '../../src/engine/index.js';
import { createEngine } from '../../src/engine/index.js';
import type { Store } from '../../src/store/index.js';
import { openTarget, parseStoreUrl } from '../../src/store/index.js';
import type { UiServer, UiServerOptions } from '../../src/web/index.js';
import { startUiServer } from '../../src/web/index.js';

/** A view started for a test, with the store and engine under it, and what it reported as bugs. */
export interface TestUi {
  readonly server: UiServer;
  readonly engine: Engine;
  readonly store: Store;
  /** Errors the server reported through `onInternalError`. */
  readonly internalErrors: unknown[];
  close(): Promise<void>;
}

/** The engine `forkpoint ui` makes over `store`: the clock (of `--now` when given) and the CLI's price tables. */
export function cliEngine(store: Store, now?: string): Engine {
  return createEngine({
    store,
    clock: now === undefined ? () => new Date() : () => new Date(now),
    prices: cliPriceLookup(undefined),
  });
}

/** How a test starts the view: the server's options, and the clock's time as `--now` gives it. */
export type TestUiOptions = Partial<UiServerOptions> & { readonly now?: string };

/**
 * Starts the view on a free loopback port as `forkpoint ui` does: over the
 * SQLite file `db` opened only to read, with the CLI's words for runs.
 */
export async function startTestUi(db: string, options: TestUiOptions = {}): Promise<TestUi> {
  const store = await openTarget(parseStoreUrl(db), { readOnly: true, synchronous: 'NORMAL' });
  return await startTestUiOver(store, options);
}

/** Starts the view over a store already open (closed with the view). */
export async function startTestUiOver(store: Store, options: TestUiOptions = {}): Promise<TestUi> {
  const { now, ...serverOptions } = options;
  const engine = cliEngine(store, now);
  const internalErrors: unknown[] = [];
  const server = await startUiServer({
    engine,
    words: runWordsFor,
    port: 0,
    onInternalError: (error) => internalErrors.push(error),
    ...serverOptions,
  });
  return {
    server,
    engine,
    store,
    internalErrors,
    close: async () => {
      await server.close();
      await store.close();
    },
  };
}
