import type { Cassette } from '../cassette/index.js';
import { readCassetteText } from '../cassette/index.js';
import { readCassette } from '../engine/index.js';
import { sqliteStore } from '../store/index.js';

/**
 * Reads a cassette file for a test, as a suite reads it without a store of
 * its own: structural and synthetic files as they are; a full tier is refused
 * (it is sealed to the store that exported it, and expires), so commit
 * fixtures recorded in the synthetic tier (`record --tier synthetic`).
 */
export function readFixture(file: string): Cassette {
  const store = sqliteStore({ path: ':memory:' });
  try {
    return readCassette(store, readCassetteText(file), file);
  } finally {
    store.close();
  }
}
