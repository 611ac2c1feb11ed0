import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { tempFolder } from './cli-harness.js';
import { getJson } from './http-get.js';
import type { TestUi } from './ui-over-store.js';
import { startTestUi } from './ui-over-store.js';
import { buildDemo } from './web-demo.js';

/** The demo's database, told once for a test file, under a view started as `forkpoint ui` starts it. */
export interface DemoUi {
  /** The database file. */
  readonly db: string;
  /** The incident's fork at step 4. */
  readonly forkId: string;
  readonly ui: TestUi;
  /** The document at `path`, which must answer 200. */
  api(path: string): Promise<unknown>;
}

/**
 * Registers the hooks that tell the demo into a fresh folder (named after
 * `prefix`) before the file's tests and start the view over it, and remove
 * both after them. Its fields are read inside tests, once the hooks have run.
 */
export function useDemoUi(prefix: string): DemoUi {
  const folder = tempFolder(prefix);
  const db = join(folder.path, 'demo.db');
  let forkId: string | undefined;
  let ui: TestUi | undefined;
  beforeAll(async () => {
    forkId = buildDemo(db).forkId;
    ui = await startTestUi(db);
  });
  afterAll(async () => {
    await ui?.close();
    folder.cleanup();
  });
  const started = (): TestUi => {
    if (ui === undefined) throw new Error('the demo view is read before its hooks ran');
    return ui;
  };
  return {
    db,
    get forkId() {
      if (forkId === undefined) throw new Error('the demo is read before its hooks ran');
      return forkId;
    },
    get ui() {
      return started();
    },
    async api(path) {
      const answer = await getJson(started().server.url, path);
      expect(answer.status, path).toBe(200);
      return answer.document;
    },
  };
}
