import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { isForkpointError } from '../../src/errors/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { sampleRun, sampleStep } from '../../src/testing/index.js';

const folder = mkdtempSync(join(tmpdir(), 'forkpoint-migrations-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});
let files = 0;

const RUN_VALUES = `'record', 'agent', 'baseline', '0123456789abcdef', '{"claimId":"CLM-1"}', 'completed', 'forkpoint-canonical/1', 1`;
const RUN_COLUMNS = 'mode, agent_name, build, code_hash, input, status, canonical_form, machine_version';

/** A new database file with forkpoint's migrations up to `version` applied, as that build of forkpoint made it. */
function databaseAtSchema(version: number): { path: string; db: Database.Database } {
  const path = join(folder, `v${version}-${files++}.db`);
  const db = new Database(path);
  // As forkpoint migrates: migration 4 rebuilds the table the others refer to.
  db.pragma('foreign_keys = OFF');
  db.pragma('page_size = 8192');
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.exec(
    `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`,
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= version)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(
      migration.version,
      migration.name,
      '2026-01-01T00:00:00.000Z',
    );
  }
  return { path, db };
}

/**
 * A database as forkpoint wrote it at schema version 3, before steps were keyed
 * by an integer run key: two runs whose creation order (b, then a) is not
 * their id order, the second a fork of the first, rows with a conversation
 * segment, and a structural cassette.
 */
function schema3Database(): string {
  const { path, db } = databaseAtSchema(3);
  const run = db.prepare(
    `INSERT INTO runs (run_id, ${RUN_COLUMNS}, created_at, step_count, parent_run_id, parent_step) VALUES (?, ${RUN_VALUES}, ?, ?, ?, ?)`,
  );
  run.run('bbbb0001', '2026-01-01T00:00:01.000Z', 2, null, null);
  run.run('aaaa0002', '2026-01-01T00:00:02.000Z', 2, 'bbbb0001', 2);
  const step = db.prepare(
    `INSERT INTO steps (run_id, step, kind, call_index, request_hash, request, message_count, response, provenance, message, message_digest, checkpoint, checkpoint_full, message_segment)
     VALUES (@run_id, @step, @kind, 0, @hash, '{}', NULL, '{}', 'live', @message, @digest, @checkpoint, @full, @segment)`,
  );
  const row = (runId: string, n: number, segment: string | null = null) => ({
    run_id: runId,
    step: n,
    kind: n === 0 ? null : 'model',
    hash: n === 0 ? null : `${runId}${n}`.padEnd(16, '0'),
    message: `{"role":"user","n":${n}}`,
    digest: `d-${runId}-${n}`,
    checkpoint: `{"step":${n}}`,
    full: n === 0 ? 1 : 0,
    segment,
  });
  step.run(row('bbbb0001', 0));
  step.run(row('bbbb0001', 1, 'seg1'));
  step.run(row('bbbb0001', 2));
  step.run(row('aaaa0002', 2));
  db.prepare('INSERT INTO blobs (digest, body) VALUES (?, ?)').run(
    'seg1',
    '{"digests":["d-bbbb0001-0","d-bbbb0001-1"],"messages":[{"role":"user","n":0},{"role":"user","n":1}]}',
  );
  db.prepare('INSERT INTO structural_cassettes (run_id, body) VALUES (?, ?)').run('bbbb0001', '{"shape":true}');
  db.close();
  return path;
}

describe('migration 4: steps keyed by an integer run key in creation order', () => {
  it('keeps every run, row, segment and cassette of a schema-3 database, and their order', async () => {
    const path = schema3Database();
    const store = sqliteStore({ path });
    try {
      expect((await store.listRuns()).map((run) => [run.runId, run.stepCount, run.parent?.runId ?? null])).toEqual([
        ['bbbb0001', 2, null],
        ['aaaa0002', 2, 'bbbb0001'],
      ]);
      expect(
        (await store.readSteps('bbbb0001')).map((row) => [row.step, row.messageDigest, row.messageSegment]),
      ).toEqual([
        [0, 'd-bbbb0001-0', null],
        [1, 'd-bbbb0001-1', 'seg1'],
        [2, 'd-bbbb0001-2', null],
      ]);
      expect((await store.readSteps('aaaa0002')).map((row) => row.step)).toEqual([2]);
      const log = await store.readMessages('bbbb0001', 0, 2);
      expect(log.segments).toHaveLength(1);
      expect(log.messages.map((message) => JSON.parse(message) as unknown)).toEqual([{ role: 'user', n: 2 }]);
      expect((await store.readCheckpointChain('bbbb0001', 2)).map((row) => row.step)).toEqual([0, 1, 2]);
      expect((await store.listChildren('bbbb0001')).map((run) => run.runId)).toEqual(['aaaa0002']);
      expect(await store.readStructural('bbbb0001')).toBe('{"shape":true}');
      // Migration 9: runs that ended before forkpoint kept token totals have none (a read of their steps prices them).
      expect((await store.listRuns()).map((run) => run.usage)).toEqual([null, null]);
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT run_id FROM runs ORDER BY run_key').pluck().all()).toEqual(['bbbb0001', 'aaaa0002']);
    // A run's rows are one range of rowids, in step order.
    expect(db.prepare('SELECT row_key - run_key * 16777216 FROM steps ORDER BY row_key').pluck().all()).toEqual([
      0, 1, 2, 2,
    ]);
    expect(db.prepare('SELECT COUNT(*) FROM steps WHERE row_key <> run_key * 16777216 + step').pluck().get()).toBe(0);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    // runs_by_expiry went with migration 4 (nothing read it); migration 7 brings it back for gc, partial.
    // Migration 11 adds one for each filter of a page that matches a value, migration 12 one for signatures.
    expect(
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all(),
    ).toEqual([
      'blobs_removed',
      'runs_by_build',
      'runs_by_created_at',
      'runs_by_expiry',
      'runs_by_mode',
      'runs_by_parent',
      'runs_by_scenario',
      'runs_by_signature',
      'runs_by_source',
      'runs_by_status',
      'steps_with_segments',
      'structural_by_expiry',
    ]);
    db.close();
  });

  it('gives a new run a key after every migrated one, and enforces references again', async () => {
    const path = schema3Database();
    const store = sqliteStore({ path });
    await store.createRun(sampleRun({ runId: '00000003' }), sampleStep(0, { checkpointFull: true }), []);
    await store.close();
    const db = new Database(path);
    expect(db.prepare('SELECT run_id FROM runs ORDER BY run_key DESC LIMIT 1').pluck().get()).toBe('00000003');
    // A row whose key does not say its run and step is refused.
    const key = db.prepare("SELECT run_key FROM runs WHERE run_id = '00000003'").pluck().get() as number;
    const insert = db.prepare(
      'INSERT INTO steps (row_key, run_key, step, checkpoint, checkpoint_full) VALUES (?, ?, ?, ?, 0)',
    );
    expect(() => insert.run(key * 16777216 + 5, key, 4, '{}')).toThrow(/CHECK constraint/);
    expect(() => insert.run(key * 16777216 + 16777216, key, 16777216, '{}')).toThrow(/CHECK constraint/);
    db.close();
    const again = sqliteStore({ path });
    try {
      // A fork of a run that does not exist breaks a reference: refused, and nothing written.
      await expect(
        again.createRun(
          sampleRun({ runId: '00000004', parent: { runId: 'ffffffff', atStep: 1, override: null, changes: null } }),
          null,
          [],
        ),
      ).rejects.toThrow();
      expect(await again.getRun('00000004')).toBeUndefined();
    } finally {
      await again.close();
    }
  });

  it('refuses, with STORE_CORRUPT and nothing migrated, a database whose rows refer to missing ones', async () => {
    const path = schema3Database();
    const db = new Database(path);
    db.pragma('foreign_keys = OFF');
    db.prepare('INSERT INTO structural_cassettes (run_id, body) VALUES (?, ?)').run('gone0000', '{}');
    db.close();
    try {
      await sqliteStore({ path }).close();
      expect.unreachable();
    } catch (error) {
      expect(isForkpointError(error, 'STORE_CORRUPT')).toBe(true);
      expect((error as Error).message).toMatch(/structural_cassettes row without its runs row/);
    }
    const after = new Database(path, { readonly: true });
    expect(after.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(3);
    expect(after.prepare("SELECT COUNT(*) FROM pragma_table_info('steps') WHERE name = 'run_id'").pluck().get()).toBe(
      1,
    );
    after.close();
  });
});

describe('migration 5: owner leases, resumes and side effects', () => {
  it('reads a run of the PID era as its PID says, and lets a resume take it over with a token', async () => {
    const path = schema3Database();
    // Schema 4, then a run still marked running by a process that had only its PID to go by.
    const upToFour = new Database(path);
    upToFour.pragma('foreign_keys = OFF');
    for (const migration of MIGRATIONS.filter((m) => m.version === 4)) {
      upToFour.exec(migration.sql);
      upToFour
        .prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)')
        .run(migration.version, migration.name, '2026-01-02T00:00:00.000Z');
    }
    upToFour.prepare("UPDATE runs SET status = 'running', owner_pid = 4242 WHERE run_id = 'bbbb0001'").run();
    upToFour.close();

    const store = sqliteStore({ path });
    try {
      expect(await store.getRun('bbbb0001')).toMatchObject({
        status: 'running',
        owner: { pid: 4242, host: null, token: null, leaseExpiresAt: null },
        resumes: [],
        sideEffects: null,
      });
      expect(await store.getRun('aaaa0002')).toMatchObject({
        owner: null,
        parent: { runId: 'bbbb0001', atStep: 2, changes: null },
      });
      expect((await store.readSteps('bbbb0001')).map((row) => row.sideEffect)).toEqual([false, false, false]);
      const owner = { pid: 7, host: 'h', token: 'token-7', leaseExpiresAt: 1 };
      const resume = {
        attempt: 2,
        fromStep: 3,
        at: '2026-03-04T00:00:00.000Z',
        after: 'interrupted',
        sideEffects: { default: 'refuse' as const, tools: {} },
      };
      await store.resumeRun({
        runId: 'bbbb0001',
        expected: { status: 'running', ownerToken: null, leaseExpiresAt: null },
        owner,
        resume,
      });
      await store.commitStep('bbbb0001', 'token-7', sampleStep(3, { kind: 'refund', sideEffect: true }), []);
      expect(await store.getRun('bbbb0001')).toMatchObject({ owner, resumes: [resume], stepCount: 3 });
      expect((await store.readSteps('bbbb0001', 3, 3))[0]?.sideEffect).toBe(true);
    } finally {
      await store.close();
    }
    const db = new Database(path);
    expect(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(SCHEMA_VERSION);
    expect(() => db.prepare('UPDATE steps SET side_effect = 2').run()).toThrow(/CHECK constraint/);
    db.close();
  });
});

describe('migrations 6 and 7: blob owners, and indexes for paging and retention', () => {
  const digest = (n: number): string => n.toString(16).padStart(32, '0');
  const ref = (n: number, key = '$blob'): string => `{"${key}":"${digest(n)}"}`;

  /**
   * A schema-5 database: run a (made first) and run b share blob 1 directly and blob 3 only through
   * a's tree 2, which b's checkpoint refers to; each has a blob of its own (4, 5) and a's row holds a
   * conversation segment (6). a has a structural record.
   */
  function schema5Database(): string {
    const { path, db } = databaseAtSchema(5);
    const run = db.prepare(
      `INSERT INTO runs (run_key, run_id, ${RUN_COLUMNS}, created_at, step_count, structural_expires_at) VALUES (?, ?, ${RUN_VALUES}, ?, 1, ?)`,
    );
    run.run(1, 'aaaa0001', '2026-01-01T00:00:01.000Z', '2026-04-01T00:00:01.000Z');
    run.run(2, 'bbbb0002', '2026-01-01T00:00:02.000Z', '2026-04-01T00:00:02.000Z');
    const step = db.prepare(
      `INSERT INTO steps (row_key, run_key, step, kind, request, response, message, checkpoint, checkpoint_full, message_segment)
       VALUES (@run_key * 16777216 + 1, @run_key, 1, 'model', @request, @response, @message, @checkpoint, 1, @segment)`,
    );
    step.run({
      run_key: 1,
      request: ref(1),
      response: ref(2, '$tree'),
      message: `[${ref(4)}]`,
      checkpoint: '{"full":true}',
      segment: digest(6),
    });
    step.run({
      run_key: 2,
      request: ref(1),
      response: ref(5),
      message: null,
      checkpoint: `{"state":${ref(2, '$tree')}}`,
      segment: null,
    });
    const blob = db.prepare('INSERT INTO blobs (digest, body) VALUES (?, ?)');
    blob.run(digest(1), '"head"');
    blob.run(digest(2), `{"inner":${ref(3)}}`);
    for (const n of [3, 4, 5, 6]) blob.run(digest(n), `"body ${n}"`);
    db.prepare('INSERT INTO structural_cassettes (run_id, body) VALUES (?, ?)').run('aaaa0001', '{"shape":"a"}');
    db.close();
    return path;
  }
  const purgeOf = (runId: string) => ({
    runId,
    purge: { at: '2026-01-05T00:00:00.000Z', reason: 'expired' as const },
    redacted: { input: {}, error: null, override: null, findings: [] },
  });

  it('gives every stored blob its first run as owner and the other runs that reach it a pair', async () => {
    const path = schema5Database();
    await sqliteStore({ path }).close();
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT digest, owner_key FROM blobs ORDER BY id').raw().all()).toEqual(
        [1, 2, 3, 4, 5, 6].map((n) => [digest(n), n === 5 ? 2 : 1]),
      );
      // b reaches 1 directly and 2 and 3 through its checkpoint's tree.
      expect(db.prepare('SELECT blob_id, run_key FROM blob_refs').raw().all()).toEqual([
        [1, 2],
        [2, 2],
        [3, 2],
      ]);
      expect(db.prepare('SELECT run_key, expires_at, body FROM structural_cassettes').raw().all()).toEqual([
        [1, '2026-04-01T00:00:01.000Z', '{"shape":"a"}'],
      ]);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    } finally {
      db.close();
    }
  });

  it('purges a migrated run keeping what the other still reaches, and pages and expires migrated runs', async () => {
    const path = schema5Database();
    const store = sqliteStore({ path });
    try {
      expect((await store.queryRuns({ limit: 5 })).map((run) => run.runId)).toEqual(['bbbb0002', 'aaaa0001']);
      expect(await store.expiredStructural('2026-05-01T00:00:00.000Z')).toEqual(['aaaa0001']);
      expect(await store.readStructural('aaaa0001')).toBe('{"shape":"a"}');
      expect(await store.purgeRuns([purgeOf('aaaa0001')])).toEqual({ steps: 1, blobs: 2 });
      expect([...(await store.readBlobs([1, 2, 3, 4, 5, 6].map(digest))).keys()].sort()).toEqual(
        [1, 2, 3, 5].map(digest),
      );
      expect(await store.purgeRuns([purgeOf('bbbb0002')])).toEqual({ steps: 1, blobs: 4 });
      expect((await store.readBlobs([1, 2, 3, 5].map(digest))).size).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('migrating a schema-7 database to store settings and export keys', () => {
  it('gives the store an id and the default retention, and makes the key of every expiry day a full-tier run still has', async () => {
    const { path, db } = databaseAtSchema(7);
    const run = db.prepare(
      `INSERT INTO runs (run_id, ${RUN_COLUMNS}, created_at, step_count, tier, expires_at, purged_at) VALUES (?, ${RUN_VALUES}, ?, 1, ?, ?, ?)`,
    );
    run.run('aaaa0001', '2026-01-01T00:00:01.000Z', 'full', '2026-01-04T00:00:01.000Z', null);
    run.run('bbbb0002', '2026-01-01T23:00:00.000Z', 'full', '2026-01-04T23:00:00.000Z', null);
    // A purged run has no payload left to seal, and a synthetic one never expires.
    run.run('cccc0003', '2026-01-02T00:00:00.000Z', 'full', '2026-01-05T00:00:00.000Z', '2026-01-06T00:00:00.000Z');
    run.run('dddd0004', '2026-01-02T00:00:00.000Z', 'synthetic', null, null);
    db.close();

    const store = sqliteStore({ path });
    try {
      const settings = await store.settings();
      expect(settings).toMatchObject({ fullRetentionHours: 72, structuralRetentionDays: 90 });
      expect(settings.storeId).toMatch(/^[0-9a-f]{16}$/);
      expect((await store.exportKey('full:2026-01-04'))?.secret).toHaveLength(32);
      expect(await store.exportKey('full:2026-01-05')).toBeUndefined();
      // The key goes once its day is over, not before.
      expect(await store.dropExportKeys('2026-01-04T23:59:59.999Z')).toBe(0);
      expect(await store.dropExportKeys('2026-01-05T00:00:00.000Z')).toBe(1);
      expect(await store.exportKey('full:2026-01-04')).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

describe('migrating a schema-9 database to sealed payloads', () => {
  const digest = (n: number): string => n.toString(16).padStart(32, '0');

  it('keeps every blob, owner and body, puts each blob key before its body, and reads the plain rows written before as they are', async () => {
    const { path, db } = databaseAtSchema(9);
    db.prepare(
      `INSERT INTO runs (run_key, run_id, ${RUN_COLUMNS}, created_at, step_count, tier, expires_at) VALUES (1, 'aaaa0001', ${RUN_VALUES}, ?, 1, 'full', ?)`,
    ).run('2026-03-04T10:00:00.000Z', '2026-03-07T10:00:00.000Z');
    db.prepare(
      `INSERT INTO steps (row_key, run_key, step, kind, request, response, checkpoint, checkpoint_full)
       VALUES (16777217, 1, 1, 'model', '{"step":1}', ?, '{"full":true}', 1)`,
    ).run(`{"$blob":"${digest(1)}"}`);
    db.prepare('INSERT INTO blobs (id, digest, owner_key, body) VALUES (?, ?, 1, ?)').run(7, digest(1), '"plain body"');
    db.close();

    const store = sqliteStore({ path });
    try {
      expect((await store.readSteps('aaaa0001')).map((step) => [step.request, step.response, step.checkpoint])).toEqual(
        [['{"step":1}', `{"$blob":"${digest(1)}"}`, '{"full":true}']],
      );
      expect((await store.getRun('aaaa0001'))?.input).toEqual({ claimId: 'CLM-1' });
      expect(await store.readBlobs([digest(1)])).toEqual(new Map([[digest(1), '"plain body"']]));
      // A new run that stores the same blob with a key leaves it plain: plain outlives every key.
      await store.createRun(sampleRun({ runId: 'bbbb0002' }), sampleStep(0, { checkpointFull: true }), [
        { digest: digest(1), body: '"plain body"' },
        { digest: digest(2), body: '"new body"' },
      ]);
    } finally {
      await store.close();
    }
    const after = new Database(path, { readonly: true });
    try {
      expect(after.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(SCHEMA_VERSION);
      expect((after.pragma('table_info(blobs)') as Array<{ name: string }>).map((column) => column.name)).toEqual([
        'id',
        'digest',
        'owner_key',
        'key_id',
        'body',
      ]);
      expect(after.prepare('SELECT id, owner_key, key_id, typeof(body) FROM blobs ORDER BY id').raw().all()).toEqual([
        [7, 1, null, 'text'],
        [8, 2, 'full:2026-03-07', 'blob'],
      ]);
      // The steps' payload columns take bytes now; the row written before kept its key and its text.
      const types = new Map(
        (after.pragma('table_info(steps)') as Array<{ name: string; type: string }>).map((column) => [
          column.name,
          column.type,
        ]),
      );
      expect(['request', 'response', 'message', 'checkpoint'].map((name) => types.get(name))).toEqual([
        'ANY',
        'ANY',
        'ANY',
        'ANY',
      ]);
      expect(
        after.prepare('SELECT row_key, typeof(request), checkpoint FROM steps WHERE run_key = 1').raw().all(),
      ).toEqual([[16777217, 'text', '{"full":true}']]);
      expect(
        after.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'steps'").pluck().all(),
      ).toEqual(['steps_with_segments']);
      expect(after.pragma('foreign_key_check')).toEqual([]);
    } finally {
      after.close();
    }
  });
});
