import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/vocabulary/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from '../../src/testing/index.js';
import { tempFolder } from '../support/cli-harness.js';
import { rejectionCode } from '../support/thrown.js';

const KEY = 'full:2026-03-07';
const FINDINGS: readonly Finding[] = [
  {
    classification: 'dropped-call',
    step: 2,
    kind: 'tool',
    index: 0,
    actualHash: null,
    recordedHashes: ['00000000000000aa'],
    changed: [],
    diff: [],
    message: 'tool#0 (step 2): recorded but never asked for; the claim of Ada Canarybrook',
  },
];
// Payload texts as the encoder writes them: canonical JSON, lone surrogates escaped, one a bare reference.
const REQUEST = '{"input":{"holder":"Ada Canarybrook","note":"cut \\ud83d"},"tool":"fetch_claim"}';
const MESSAGE = '{"content":[{"text":"Schaden 🌩️ of Ada Canarybrook","type":"text"}],"role":"user"}';
const REFERENCE = '{"$blob":"0123456789abcdef0123456789abcdef"}';
const BODY = '{"holder":"Ada Canarybrook","narrative":"' + 'hail on the roof, '.repeat(30) + '"}';

describe('the SQLite store seals the payloads of full-tier runs that expire', () => {
  const folders: Array<{ cleanup(): void }> = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) folder.cleanup();
  });
  const filePath = (): string => {
    const folder = tempFolder('forkpoint-sealing-');
    folders.push(folder);
    return join(folder.path, 'sealed.db');
  };
  const raw = <T>(path: string, read: (db: Database.Database) => T): T => {
    const db = new Database(path, { readonly: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  };

  async function writeRuns(path: string) {
    const store = sqliteStore({ path });
    const step = sampleStep(1, { request: REQUEST, response: REFERENCE, message: MESSAGE, checkpoint: MESSAGE });
    for (const [runId, overrides] of [
      ['0000abcd', {}],
      ['0000abce', { tier: 'synthetic' as const, expiresAt: null, structuralExpiresAt: null }],
    ] as const) {
      await store.createRun(sampleRun({ runId, ...overrides }), sampleStep(0, { checkpointFull: true }), [
        { digest: `${runId}0123456789abcdef0123456789ab`, body: BODY },
      ]);
      await store.commitStep(runId, SAMPLE_OWNER_TOKEN, step, []);
      await store.finishRun(runId, SAMPLE_OWNER_TOKEN, {
        status: 'failed',
        outcome: null,
        error: { code: 'VALIDATION_FAILED', message: 'payout for Ada Canarybrook is negative', step: 1 },
        finishedAt: '2026-03-04T10:01:00.000Z',
        findings: FINDINGS,
      });
    }
    // A fork: its override and what it changed are payload too.
    await store.createRun(
      sampleRun({
        runId: '0000abcf',
        parent: {
          runId: '0000abcd',
          atStep: 1,
          override: { kind: 'tool-result', output: { holder: 'Ada Canarybrook' } },
          changes: [{ path: '/holder', before: 'x', after: 'Ada Canarybrook' }],
        },
      }),
      null,
      [],
    );
    return store;
  }

  it('writes them sealed, reads them back byte for byte, and leaves a run kept for good in plain text', async () => {
    const path = filePath();
    const store = await writeRuns(path);
    const runs = raw(path, (db) =>
      db
        .prepare('SELECT run_id, input, error, findings, override, override_changes FROM runs ORDER BY run_key')
        .raw()
        .all(),
    ) as Array<Array<string | null>>;
    const [sealed, plain, fork] = runs;
    expect(sealed!.slice(1, 2).every((text) => text!.startsWith(`sealed:1:${KEY}:`))).toBe(true);
    expect(sealed![3]!.startsWith(`sealed:1:${KEY}:`)).toBe(true);
    // An error keeps its code and step readable, as a purge keeps them; its message is sealed.
    expect(JSON.parse(sealed![2]!)).toEqual({ code: 'VALIDATION_FAILED', sealedMessage: expect.any(String), step: 1 });
    expect(fork!.slice(4).every((text) => text!.startsWith(`sealed:1:${KEY}:`))).toBe(true);
    expect(plain!.join('')).toContain('Ada Canarybrook');
    for (const row of [sealed!, fork!]) expect(row.join('')).not.toContain('Ada Canarybrook');
    const plainSteps = raw(path, (db) =>
      db
        .prepare(`SELECT request, message FROM steps JOIN runs USING (run_key) WHERE run_id = '0000abce' AND step = 1`)
        .raw()
        .get(),
    );
    expect(plainSteps).toEqual([REQUEST, MESSAGE]);

    // A row's payload columns take sealed bytes: version 1, the key id, iv, ciphertext and tag.
    const steps = raw(path, (db) =>
      db
        .prepare(
          `SELECT request, response, message, checkpoint FROM steps JOIN runs USING (run_key) WHERE run_id = '0000abcd' AND step = 1`,
        )
        .raw()
        .get(),
    ) as Array<string | Buffer>;
    const header = Buffer.concat([Buffer.from([1, KEY.length]), Buffer.from(KEY)]);
    for (const [index, text] of [
      [0, REQUEST],
      [2, MESSAGE],
      [3, MESSAGE],
    ] as const) {
      const stored = steps[index] as Buffer;
      expect(Buffer.isBuffer(stored)).toBe(true);
      expect(stored.subarray(0, header.length)).toEqual(header);
      expect(stored.length).toBe(header.length + 12 + Buffer.byteLength(text) + 16);
    }
    // A bare reference holds a digest only, kept in the clear in the blobs table anyway.
    expect(steps[1]).toBe(REFERENCE);
    const blobs = raw(path, (db) =>
      db.prepare('SELECT key_id, typeof(body), length(body) FROM blobs ORDER BY id').raw().all(),
    );
    expect(blobs).toEqual([
      [KEY, 'blob', 2 + KEY.length + 12 + Buffer.byteLength(BODY) + 16],
      [null, 'text', BODY.length],
    ]);

    // Every read gives back the texts it was given.
    const [row] = await store.readSteps('0000abcd', 1, 1);
    expect(row).toMatchObject({ request: REQUEST, response: REFERENCE, message: MESSAGE, checkpoint: MESSAGE });
    expect((await store.readCheckpointChain('0000abcd', 1)).map((link) => link.checkpoint)).toEqual([
      '{"step":0}',
      MESSAGE,
    ]);
    expect((await store.readMessages('0000abcd', 1, 1)).messages).toEqual([MESSAGE]);
    expect(
      (await store.readBlobs(['0000abcd0123456789abcdef0123456789ab'])).get('0000abcd0123456789abcdef0123456789ab'),
    ).toBe(BODY);
    const run = await store.getRun('0000abcd');
    expect(run).toMatchObject({
      input: { claimId: 'CLM-1', note: 'half an emoji: \ud83d' },
      error: { code: 'VALIDATION_FAILED', message: 'payout for Ada Canarybrook is negative', step: 1 },
      findings: FINDINGS,
    });
    expect((await store.getRun('0000abcf'))?.parent).toEqual({
      runId: '0000abcd',
      atStep: 1,
      override: { kind: 'tool-result', output: { holder: 'Ada Canarybrook' } },
      changes: [{ path: '/holder', before: 'x', after: 'Ada Canarybrook' }],
    });
    expect(await store.getRun('0000abce')).toMatchObject({ input: run?.input, error: run?.error, findings: FINDINGS });
    await store.close();
  });

  it('refuses a sealed value changed outside forkpoint as STORE_CORRUPT, and says CASSETTE_EXPIRED once the key is gone', async () => {
    const path = filePath();
    await (await writeRuns(path)).close();
    const damaged = new Database(path);
    // One byte of a sealed message changed, past its header.
    const select = `SELECT row_key, message FROM steps JOIN runs USING (run_key) WHERE run_id = '0000abcd' AND step = 1`;
    const { row_key: rowKey, message } = damaged.prepare(select).get() as { row_key: number; message: Buffer };
    message[40] = message[40]! ^ 0x10;
    damaged.prepare('UPDATE steps SET message = ? WHERE row_key = ?').run(message, rowKey);
    damaged.close();
    const store = sqliteStore({ path });
    expect(await rejectionCode(() => store.readSteps('0000abcd'))).toBe('STORE_CORRUPT');
    // The plain run's rows are untouched by the sealing, and read.
    expect(await store.readSteps('0000abce')).toHaveLength(2);
    expect(await store.dropExportKeys('2026-03-08T00:00:00.000Z')).toBe(1);
    expect(await rejectionCode(() => store.readCheckpointChain('0000abcd', 1))).toBe('CASSETTE_EXPIRED');
    expect(await rejectionCode(() => store.readBlobs(['0000abcd0123456789abcdef0123456789ab']))).toBe(
      'CASSETTE_EXPIRED',
    );
    await store.close();
  });
});
