import type { Store } from '../store/index.js';

/** How the conformance suite gets stores. */
export interface StoreFactory {
  /** A fresh, empty store. */
  open(): Store | Promise<Store>;
  /**
   * Closes `store` and opens the same data again, for implementations that
   * persist; omit it for purely in-memory ones.
   */
  reopen?(store: Store): Store | Promise<Store>;
  /**
   * Opens a second handle on the data `store` holds (another connection, as
   * another process would have), for implementations that several processes
   * share; omit it otherwise.
   */
  another?(store: Store): Store | Promise<Store>;
}

/** What each group of the conformance suite is given. */
export interface StoreSuite {
  readonly factory: StoreFactory;
  /** A fresh, empty store, closed after the test. */
  fresh(): Promise<Store>;
  /** Closes `store` after the test too; returns it. */
  track(store: Store): Store;
}
