import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isForkpointError } from '../../src/errors/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { sampleRun, sampleStep } from '../../src/testing/index.js';
import { cli, tempFolder } from '../support/cli-harness.js';

let folder: ReturnType<typeof tempFolder>;
let path: string;
beforeEach(async () => {
  folder = tempFolder('forkpoint-locks-');
  path = join(folder.path, 'locked.db');
  const store = sqliteStore({ path });
  await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
  await store.close();
});
afterEach(() => {
  folder.cleanup();
});

/** Another process's long write (a gc, say): it holds the write lock until released. */
function holdWriteLock(): () => void {
  const writer = new Database(path);
  writer.prepare('BEGIN IMMEDIATE').run();
  writer.prepare("UPDATE runs SET build = 'held' WHERE run_id = '0000abcd'").run();
  return () => {
    writer.prepare('ROLLBACK').run();
    writer.close();
  };
}

describe('the write lock', () => {
  it('never keeps a reader out: opening and reading take no write lock when nothing needs migrating', async () => {
    const release = holdWriteLock();
    try {
      const started = Date.now();
      const runs = await cli(['runs', '--json', '--db', path]);
      expect(runs.exit).toBe(0);
      expect((JSON.parse(runs.stdout) as { runs: { runId: string }[] }).runs.map((run) => run.runId)).toEqual([
        '0000abcd',
      ]);
      // A writer that opens meanwhile opens too: only its first write waits for the lock.
      const store = sqliteStore({ path, busyTimeoutMs: 100 });
      expect((await store.getRun('0000abcd'))?.build).toBe('baseline');
      expect(Date.now() - started).toBeLessThan(3000);
      let caught: unknown;
      try {
        await store.commitStep('0000abcd', 'owner-token-1', sampleStep(1), []);
      } catch (error) {
        caught = error;
      }
      expect(isForkpointError(caught, 'STORE_BUSY')).toBe(true);
      expect((caught as Error).message).toMatch(
        /held the write lock of .* longer than the busy timeout .* run the command again/,
      );
      await store.close();
    } finally {
      release();
    }
  });
});
