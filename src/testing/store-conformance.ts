import { afterEach, describe } from 'vitest';
import type { Store } from '../store/index.js';
import { describeConsistencyConformance } from './store-conformance-consistency.js';
import { describeImportConformance } from './store-conformance-import.js';
import { describeOwnerConformance } from './store-conformance-owners.js';
import { describePagingConformance } from './store-conformance-paging.js';
import { describeRestoreConformance } from './store-conformance-restore.js';
import { describeRetentionConformance } from './store-conformance-retention.js';
import { describeRowConformance } from './store-conformance-rows.js';
import { describeRunConformance } from './store-conformance-runs.js';
import { describeSettingsConformance } from './store-conformance-settings.js';
import { describeUsageConformance } from './store-conformance-usage.js';
import { describeSignatureConformance } from './store-conformance-signatures.js';
import { describeScaleConformance } from './store-scale-conformance.js';
import type { StoreFactory, StoreSuite } from './store-suite.js';

/**
 * The behaviour every {@link Store} implementation must have, as vitest
 * tests: runs and their rows, owners and resumes, retention, settings and
 * export keys, token totals, runs copied in from another store, paging and gc at scale, and what `read` promises. Call it from
 * a test file of the implementation; it uses only the `Store` interface, so a
 * store written outside forkpoint (PostgreSQL, say) runs it unchanged.
 *
 * @example
 * ```ts
 * import { describeStoreConformance } from 'forkpoint/testing';
 * describeStoreConformance('memory', { open: () => memoryStore() });
 * ```
 */
export function describeStoreConformance(name: string, factory: StoreFactory): void {
  describe(`Store conformance: ${name}`, () => {
    const open: Store[] = [];
    const suite: StoreSuite = {
      factory,
      fresh: async () => suite.track(await factory.open()),
      track: (store) => {
        open.push(store);
        return store;
      },
    };
    afterEach(async () => {
      for (const store of open.splice(0)) {
        try {
          await store.close();
        } catch {
          // already closed by the test
        }
      }
    });
    describeRunConformance(suite);
    describeRowConformance(suite);
    describeRestoreConformance(suite);
    describeOwnerConformance(suite);
    describeRetentionConformance(suite);
    describeSettingsConformance(suite);
    describeUsageConformance(suite);
    describeSignatureConformance(suite);
    describeImportConformance(suite);
    describe('at scale', () => {
      describePagingConformance(suite);
      describeScaleConformance(suite);
    });
    describeConsistencyConformance(suite);
  });
}
