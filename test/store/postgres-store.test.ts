import { describeStoreConformance } from '../../src/testing/index.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Store } from '../../src/store/index.js';
import { describePostgres, dropFreshSchemasAfterAll, freshSchemaName, postgresTestUrl } from '../support/postgres.js';

dropFreshSchemasAfterAll();

// Each store in a schema of its own, so that no test sees another's tables; the handles share it by schema.
const schemas = new WeakMap<Store, string>();
const opened = (schema: string): Store => {
  const store = postgresStore({ connectionString: postgresTestUrl() ?? '', schema });
  schemas.set(store, schema);
  return store;
};
const schemaOf = (store: Store): string => schemas.get(store) ?? freshSchemaName();

describePostgres('the PostgreSQL store', () => {
  describeStoreConformance('postgres', {
    open: () => opened(freshSchemaName()),
    reopen: async (store) => {
      await store.close();
      return opened(schemaOf(store));
    },
    another: (store) => opened(schemaOf(store)),
  });
});
