import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { OWNERSHIP_SQL } from '../../src/store/sqlite/blob-ownership.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from '../../src/testing/index.js';
import { executedBy } from '../support/sqlite-statements.js';

const folder = mkdtempSync(join(tmpdir(), 'forkpoint-ownership-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});
let files = 0;

const digest = (n: number): string => n.toString(16).padStart(32, '0');
const ref = (n: number, key = '$blob'): string => `{"${key}":"${digest(n)}"}`;
const finished = {
  status: 'completed' as const,
  outcome: { ok: true },
  error: null,
  finishedAt: '2026-03-04T10:01:00.000Z',
};
const purgeOf = (runId: string) => ({
  runId,
  purge: { at: '2026-03-08T00:00:00.000Z', reason: 'capture-policy' as const },
  redacted: { input: {}, error: null, override: null, findings: [] },
});

/**
 * Run `n`, like a recording: three steps, each with a tool output of its own, a message that holds it
 * (a tree), and the build's request head, which every run shares.
 */
async function record(store: Store, n: number): Promise<string> {
  const runId = n.toString(16).padStart(8, '0');
  await store.createRun(
    sampleRun({ runId, createdAt: `2026-03-04T00:00:00.${String(n % 1000).padStart(3, '0')}Z` }),
    sampleStep(0, { checkpointFull: true }),
    [],
  );
  for (let step = 1; step <= 3; step++) {
    const own = 1000 * n + step;
    const tree = 1000 * n + 100 + step;
    const last = step === 3 ? finished : undefined;
    await store.commitStep(
      runId,
      SAMPLE_OWNER_TOKEN,
      sampleStep(step, {
        request: ref(1),
        response: ref(own),
        message: ref(tree, '$tree'),
        checkpoint: `{"output":${ref(own)}}`,
      }),
      [
        { digest: digest(1), body: '"the request head"' },
        { digest: digest(own), body: `"output ${own}"` },
        { digest: digest(tree), body: `{"content":${ref(own)}}` },
      ],
      last,
    );
  }
  return runId;
}

describe('blob ownership (migration 6)', () => {
  const stores: Store[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  const open = (): Store => {
    const store = sqliteStore({ path: join(folder, `ownership-${files++}.db`) });
    stores.push(store);
    return store;
  };

  it('reads what the purged run holds, however many other runs the database holds', async () => {
    const readBy = async (others: number): Promise<number> => {
      const store = open();
      for (let n = 1; n <= others; n++) await record(store, n);
      const runId = await record(store, others + 1);
      return (await executedBy(() => store.purgeRuns([purgeOf(runId)]))).reduce(
        (rows, statement) => rows + statement.rows,
        0,
      );
    };
    const small = await readBy(2);
    // The purged run's 4 rows, its 7 blobs and their trees, a handful of lookups; not the other runs' rows.
    expect(small).toBeGreaterThan(4);
    expect(small).toBeLessThan(30);
    expect(await readBy(120)).toBe(small);
  });

  it('finds every row it reads or writes, in a purge and in a step, through a key or an index', async () => {
    const store = open();
    for (let n = 1; n <= 20; n++) await record(store, n);
    const executed = [
      ...(await executedBy(() => record(store, 21))),
      ...(await executedBy(() => store.purgeRuns([purgeOf('00000003'), purgeOf('00000015')]))),
    ];
    const statements = new Map(
      executed
        .filter((statement) => !/^\s*(BEGIN|COMMIT|ROLLBACK)/.test(statement.sql))
        .map((statement) => [statement.sql, statement.args]),
    );
    // And the ownership statements these writes happened not to need (a blob handed to an heir, say).
    for (const sql of Object.values(OWNERSHIP_SQL)) {
      if (!statements.has(sql))
        statements.set(
          sql,
          sql.includes('json_each') ? ['[1]'] : Array.from({ length: sql.split('?').length - 1 }, () => 1),
        );
    }
    expect(statements.size).toBeGreaterThan(15);
    const db = new Database(store.location, { readonly: true });
    try {
      for (const [sql, args] of statements) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map(
          (row) => row.detail,
        );
        // A scan is allowed only over the JSON array a statement is given (json_each).
        const scans = plan.filter((detail) => /^SCAN /.test(detail) && !/VIRTUAL TABLE/.test(detail));
        expect({ sql, scans }).toEqual({ sql, scans: [] });
      }
    } finally {
      db.close();
    }
  });

  it('writes no ownership row for the blobs a run stores itself, and looks none up twice in a run', async () => {
    const store = open();
    await record(store, 1);
    const second = await executedBy(() => record(store, 2));
    const db = new Database(store.location, { readonly: true });
    try {
      // Run 2 reaches the shared head, which run 1 stored: one pair. Its own blobs are its own.
      expect(db.prepare('SELECT COUNT(*) FROM blob_refs').pluck().get()).toBe(1);
      expect(
        db
          .prepare("SELECT COUNT(*) FROM blobs WHERE owner_key = (SELECT run_key FROM runs WHERE run_id = '00000002')")
          .pluck()
          .get(),
      ).toBe(6);
    } finally {
      db.close();
    }
    // The head is looked up once, at the run's first step; the rest are known from the writes themselves.
    expect(second.filter((statement) => statement.sql === OWNERSHIP_SQL.blobsByDigests)).toHaveLength(1);
  });

  it("removes a purged blob's body at once, zeroed, and its row, a digest, with the next compaction", async () => {
    const store = open();
    const runId = await record(store, 1);
    await record(store, 2);
    expect(await store.purgeRuns([purgeOf(runId)])).toEqual({ steps: 4, blobs: 6 });
    const own = [1001, 1002, 1003, 1101, 1102, 1103].map(digest);
    const rows = (): Array<{ digest: string; removed: number }> => {
      const db = new Database(store.location, { readonly: true });
      try {
        return db
          .prepare('SELECT digest, body IS NULL AS removed FROM blobs WHERE digest IN (SELECT value FROM json_each(?))')
          .all(JSON.stringify(own)) as Array<{ digest: string; removed: number }>;
      } finally {
        db.close();
      }
    };
    expect(rows().filter((row) => row.removed === 1)).toHaveLength(6);
    expect((await store.readBlobs([digest(1001), digest(1101), digest(1)])).size).toBe(1);
    await store.compact();
    expect(rows()).toEqual([]);
    expect((await store.readBlobs([digest(2001), digest(1)])).size).toBe(2);
  });
});
