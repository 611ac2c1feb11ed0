import type { Cassette } from '../cassette/index.js';
import { readCassetteText } from '../cassette/index.js';
import { readCassette } from '../engine/index.js';
import { memoryStore } from '../store/index.js';

/**
 * Reads a cassette file for a test, as a suite reads it without a store of
 * its own: structural and synthetic files as they are; a full tier is refused
 * (it is sealed to the store that exported it, and expires), so commit
 * fixtures recorded in the synthetic tier (`record --tier synthetic`).
 */
export async function readFixture(file: string): Promise<Cassette> {
  const store = memoryStore();
  try {
    return await readCassette(store, readCassetteText(file), file);
  } finally {
    await store.close();
  }
}
