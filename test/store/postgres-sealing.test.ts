import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Finding } from '../../src/vocabulary/index.js';
import type { RunFinish, RunRecord, Store } from '../../src/store/index.js';
import { postgresStore, startedRunRecord } from '../../src/store/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from '../../src/testing/index.js';
import { countingPool } from '../support/counting-pool.js';
import {
  adminPool,
  describePostgres,
  dropFreshSchemasAfterAll,
  freshSchemaName,
  postgresTestUrl,
} from '../support/postgres.js';
import { rejectionCode } from '../support/thrown.js';

dropFreshSchemasAfterAll();

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
const blobOf = (runId: string) => ({ digest: `${runId}0123456789abcdef0123456789ab`, body: BODY });
const FAILED: RunFinish = {
  status: 'failed',
  outcome: null,
  error: { code: 'VALIDATION_FAILED', message: 'payout for Ada Canarybrook is negative', step: 1 },
  finishedAt: '2026-03-04T10:01:00.000Z',
  findings: FINDINGS,
};
// Past the day of KEY: gc deletes it then.
const KEY_DUE = '2026-03-08T00:00:00.000Z';

describePostgres('the PostgreSQL store seals the payloads of full-tier runs that expire', () => {
  let admin: pg.Pool;
  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    await admin.end();
  });
  const open = (schema: string): Store => postgresStore({ connectionString: postgresTestUrl() ?? '', schema });
  const raw = async <Row>(schema: string, sql: string, values: unknown[] = []): Promise<Row[]> =>
    (await admin.query(sql.replaceAll('@.', `${schema}.`), values)).rows as Row[];

  async function writeRuns(store: Store): Promise<void> {
    const step = sampleStep(1, { request: REQUEST, response: REFERENCE, message: MESSAGE, checkpoint: MESSAGE });
    for (const [runId, overrides] of [
      ['0000abcd', {}],
      ['0000abce', { tier: 'synthetic' as const, expiresAt: null, structuralExpiresAt: null }],
    ] as const) {
      await store.createRun(sampleRun({ runId, ...overrides }), sampleStep(0, { checkpointFull: true }), [
        blobOf(runId),
      ]);
      await store.commitStep(runId, SAMPLE_OWNER_TOKEN, step, []);
      await store.finishRun(runId, SAMPLE_OWNER_TOKEN, FAILED);
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
  }

  it('writes them sealed, reads them back byte for byte, and leaves a run kept for good in plain text', async () => {
    const schema = freshSchemaName();
    const store = open(schema);
    await writeRuns(store);
    const runs = await raw<Record<string, string | null>>(
      schema,
      'SELECT run_id, input, error, findings, override, override_changes FROM @.runs ORDER BY run_key',
    );
    const [sealed, plain, fork] = runs;
    expect(sealed!.input!.startsWith(`sealed:1:${KEY}:`)).toBe(true);
    expect(sealed!.findings!.startsWith(`sealed:1:${KEY}:`)).toBe(true);
    // An error keeps its code and step readable, as a purge keeps them; its message is sealed.
    expect(JSON.parse(sealed!.error!)).toEqual({
      code: 'VALIDATION_FAILED',
      sealedMessage: expect.any(String),
      step: 1,
    });
    expect(fork!.override!.startsWith(`sealed:1:${KEY}:`)).toBe(true);
    expect(fork!.override_changes!.startsWith(`sealed:1:${KEY}:`)).toBe(true);
    expect(Object.values(plain!).join('')).toContain('Ada Canarybrook');
    for (const row of [sealed!, fork!]) expect(Object.values(row).join('')).not.toContain('Ada Canarybrook');

    // A row's payload columns hold bytes: a plain run's UTF-8, a sealed run's version 1, the key id, iv,
    // ciphertext and tag.
    const stepOf = (runId: string) =>
      raw<Record<string, Buffer | null>>(
        schema,
        `SELECT request, response, message, checkpoint FROM @.steps JOIN @.runs USING (run_key) WHERE run_id = $1 AND step = 1`,
        [runId],
      );
    const [plainStep] = await stepOf('0000abce');
    expect([plainStep!.request!.toString('utf8'), plainStep!.message!.toString('utf8')]).toEqual([REQUEST, MESSAGE]);
    const [sealedStep] = await stepOf('0000abcd');
    const header = Buffer.concat([Buffer.from([1, KEY.length]), Buffer.from(KEY)]);
    for (const [column, text] of [
      ['request', REQUEST],
      ['message', MESSAGE],
      ['checkpoint', MESSAGE],
    ] as const) {
      const stored = sealedStep![column]!;
      expect(stored.subarray(0, header.length)).toEqual(header);
      expect(stored.length).toBe(header.length + 12 + Buffer.byteLength(text) + 16);
    }
    // A bare reference holds a digest only, kept in the clear in the blobs table anyway.
    expect(sealedStep!.response!.toString('utf8')).toBe(REFERENCE);
    const blobs = await raw<{ key_id: string | null; length: number; body: Buffer }>(
      schema,
      'SELECT key_id, length(body) AS length, body FROM @.blobs ORDER BY digest',
    );
    expect(blobs.map(({ key_id, length }) => [key_id, length])).toEqual([
      [KEY, 2 + KEY.length + 12 + Buffer.byteLength(BODY) + 16],
      [null, Buffer.byteLength(BODY)],
    ]);
    expect(blobs[1]!.body.toString('utf8')).toBe(BODY);

    // Every read gives back the texts it was given, in another store too (which read the keys when it opened).
    for (const reader of [store, open(schema)]) {
      const [row] = await reader.readSteps('0000abcd', 1, 1);
      expect(row).toMatchObject({ request: REQUEST, response: REFERENCE, message: MESSAGE, checkpoint: MESSAGE });
      expect((await reader.readCheckpointChain('0000abcd', 1)).map((link) => link.checkpoint)).toEqual([
        '{"step":0}',
        MESSAGE,
      ]);
      expect((await reader.readMessages('0000abcd', 1, 1)).messages).toEqual([MESSAGE]);
      expect((await reader.readBlobs([blobOf('0000abcd').digest])).get(blobOf('0000abcd').digest)).toBe(BODY);
      const restored = await reader.readRestore({
        chain: { runId: '0000abcd', step: 1 },
        logs: [{ runId: '0000abcd', from: 0, to: 1 }],
      });
      expect(restored.chain.map((link) => link.checkpoint)).toEqual(['{"step":0}', MESSAGE]);
      expect(restored.logs[0]?.messages).toContain(MESSAGE);
      const run = await reader.getRun('0000abcd');
      expect(run).toMatchObject({
        input: { claimId: 'CLM-1', note: 'half an emoji: \ud83d' },
        error: FAILED.error,
        findings: FINDINGS,
      });
      expect((await reader.getRun('0000abcf'))?.parent).toEqual({
        runId: '0000abcd',
        atStep: 1,
        override: { kind: 'tool-result', output: { holder: 'Ada Canarybrook' } },
        changes: [{ path: '/holder', before: 'x', after: 'Ada Canarybrook' }],
      });
      expect(await reader.getRun('0000abce')).toMatchObject({
        input: run?.input,
        error: run?.error,
        findings: FINDINGS,
      });
      await reader.close();
    }
  });

  it('refuses a sealed value changed outside forkpoint as STORE_CORRUPT, and says CASSETTE_EXPIRED once the key is gone', async () => {
    const schema = freshSchemaName();
    const writer = open(schema);
    await writeRuns(writer);
    await writer.close();
    // One byte of a sealed message changed, past its header.
    await raw(
      schema,
      `UPDATE @.steps SET message = set_byte(message, 40, get_byte(message, 40) # 16)
       WHERE run_key = (SELECT run_key FROM @.runs WHERE run_id = '0000abcd') AND step = 1`,
    );
    const store = open(schema);
    await store.createRun(sampleRun({ runId: '0000abd0' }), sampleStep(0, { checkpointFull: true }), []);
    expect(await rejectionCode(() => store.readSteps('0000abcd'))).toBe('STORE_CORRUPT');
    // The plain run's rows are untouched by the sealing, and read.
    expect(await store.readSteps('0000abce')).toHaveLength(2);
    expect(await store.dropExportKeys(KEY_DUE)).toBe(1);
    expect(await rejectionCode(() => store.readCheckpointChain('0000abcd', 1))).toBe('CASSETTE_EXPIRED');
    expect(await rejectionCode(() => store.readBlobs([blobOf('0000abcd').digest]))).toBe('CASSETTE_EXPIRED');
    expect(
      await rejectionCode(() =>
        store.readRestore({ chain: { runId: '0000abcd', step: 1 }, logs: [{ runId: '0000abcd', from: 0, to: 1 }] }),
      ),
    ).toBe('CASSETTE_EXPIRED');
    // A step of a run still running whose key is gone is refused, and nothing of it written.
    expect(await rejectionCode(() => store.commitStep('0000abd0', SAMPLE_OWNER_TOKEN, sampleStep(1), []))).toBe(
      'CASSETTE_EXPIRED',
    );
    expect(
      await raw(
        schema,
        `SELECT step FROM @.steps WHERE run_key = (SELECT run_key FROM @.runs WHERE run_id = '0000abd0')`,
      ),
    ).toEqual([{ step: 0 }]);
    await store.close();
  });

  it('finds the key another process made for a day, seals its own runs of that day with it, and reads it once', async () => {
    const schema = freshSchemaName();
    const first = open(schema);
    const pool = countingPool();
    const second = postgresStore({ pool, schema });
    // Both open before the day has a key: neither holds one.
    await first.listRuns();
    await second.listRuns();
    const statementsOf = async (work: () => Promise<unknown>): Promise<number> => {
      pool.reset();
      await work();
      return pool.statements.length;
    };
    try {
      await first.createRun(sampleRun({ runId: '0000aaaa' }), sampleStep(0, { checkpointFull: true }), []);
      // The second store offers a key of its own, which the server refuses (the day has the first's), and
      // seals the run again with the one the server names: two statements, once.
      expect(
        await statementsOf(() =>
          second.createRun(sampleRun({ runId: '0000bbbb' }), sampleStep(0, { checkpointFull: true }), [blobOf('b')]),
        ),
      ).toBe(2);
      expect(
        await statementsOf(() =>
          second.createRun(sampleRun({ runId: '0000cccc' }), sampleStep(0, { checkpointFull: true }), []),
        ),
      ).toBe(1);
      // The first store reads what the second sealed: it was sealed with the day's one key.
      expect((await first.getRun('0000bbbb'))?.input).toEqual(sampleRun().input);
      expect((await first.readBlobs([blobOf('b').digest])).get(blobOf('b').digest)).toBe(BODY);
      expect((await raw<{ count: number }>(schema, 'SELECT count(*)::integer AS count FROM @.export_keys'))[0]).toEqual(
        { count: 1 },
      );
      // A step of a run the second store has not made nor read reads the run's expiry first, once.
      expect(await statementsOf(() => second.commitStep('0000aaaa', SAMPLE_OWNER_TOKEN, sampleStep(1), []))).toBe(2);
      expect(await statementsOf(() => second.commitStep('0000aaaa', SAMPLE_OWNER_TOKEN, sampleStep(2), []))).toBe(1);
      expect((await first.readSteps('0000aaaa')).map((row) => row.step)).toEqual([0, 1, 2]);

      // A run of the next day, made by the first store: the second reads its key with its first read of it.
      await first.createRun(
        sampleRun({ runId: '0000dddd', expiresAt: '2026-03-08T10:00:00.000Z' }),
        sampleStep(0, { checkpointFull: true, checkpoint: MESSAGE }),
        [],
      );
      const chain = { runId: '0000dddd', step: 0 };
      const restore = () => second.readRestore({ chain, logs: [{ runId: '0000dddd', from: 0, to: 0 }] });
      expect(await statementsOf(restore)).toBe(2);
      expect(await statementsOf(restore)).toBe(1);
      expect((await restore()).chain[0]?.checkpoint).toBe(MESSAGE);
    } finally {
      await first.close();
      await second.close();
      await pool.end();
    }
  });

  it('never offers again the secret of a key deleted by another process, when its day gets a key anew', async () => {
    const schema = freshSchemaName();
    const holder = open(schema);
    await holder.createRun(sampleRun({ runId: '0000aaaa' }), sampleStep(0, { checkpointFull: true }), []);
    const old = (await holder.exportKey(KEY))!.secret;
    // Another process deletes the day's key; the holder still has it in memory.
    const collector = open(schema);
    expect(await collector.dropExportKeys(KEY_DUE)).toBe(1);
    await collector.close();
    // A run of that day again (its clock behind, or a full tier of hours): it gets a key of a new secret.
    await holder.createRun(sampleRun({ runId: '0000bbbb' }), sampleStep(0, { checkpointFull: true }), []);
    const renewed = (await holder.exportKey(KEY))!.secret;
    expect(Buffer.compare(renewed, old)).not.toBe(0);
    await holder.close();
    const reader = open(schema);
    expect((await reader.getRun('0000bbbb'))?.input).toEqual(sampleRun().input);
    expect(await reader.readSteps('0000bbbb')).toHaveLength(1);
    // What the deleted key sealed stays unreadable: the key of that id is another one now.
    expect(await rejectionCode(() => reader.readSteps('0000aaaa'))).toBe('STORE_CORRUPT');
    await reader.close();
  });

  it('seals a run copied in (importRun) under its own key for the run’s day, and keeps a purged one’s summary plain', async () => {
    const schema = freshSchemaName();
    const store = open(schema);
    // Another process made the day's key first: the copy is sealed with that one.
    const other = open(schema);
    await other.listRuns();
    await store.createRun(sampleRun({ runId: '0000aaaa' }), sampleStep(0, { checkpointFull: true }), []);
    const copied: RunRecord = {
      ...startedRunRecord(sampleRun({ runId: 'c0c0c0c0c0c0', owner: null })),
      ...FAILED,
      findings: FINDINGS,
      stepCount: 1,
    };
    const rows = [
      sampleStep(0, { checkpointFull: true }),
      sampleStep(1, { request: REQUEST, message: MESSAGE, checkpoint: MESSAGE }),
    ];
    await other.importRun(copied, rows, [blobOf('c0c0')], '{"structural":true}');
    const purged: RunRecord = {
      ...copied,
      runId: 'c0c0c0c0c0c1',
      input: { redacted: 'a'.repeat(15) },
      error: null,
      findings: [],
      expiresAt: '2026-03-09T10:00:00.000Z',
      purge: { at: '2026-03-10T00:00:00.000Z', reason: 'expired' },
    };
    await other.importRun(purged, [], [], '{"shape":1}');
    await other.close();

    const [sealedRun, plainRun] = await raw<{ input: string; error: string | null }>(
      schema,
      `SELECT input, error FROM @.runs WHERE run_id IN ('c0c0c0c0c0c0', 'c0c0c0c0c0c1') ORDER BY run_id`,
    );
    expect(sealedRun!.input.startsWith(`sealed:1:${KEY}:`)).toBe(true);
    expect(JSON.parse(sealedRun!.error!)).toHaveProperty('sealedMessage');
    expect(JSON.parse(plainRun!.input)).toEqual(purged.input);
    const [step] = await raw<{ message: Buffer }>(
      schema,
      `SELECT message FROM @.steps JOIN @.runs USING (run_key) WHERE run_id = 'c0c0c0c0c0c0' AND step = 1`,
    );
    expect(step!.message.subarray(2, 2 + KEY.length).toString()).toBe(KEY);
    expect(await raw(schema, 'SELECT key_id FROM @.blobs')).toEqual([{ key_id: KEY }]);
    expect(await raw(schema, 'SELECT key_id FROM @.export_keys')).toEqual([{ key_id: KEY }]);
    // The store that made the key reads the copy, as it was given.
    expect(await store.getRun(copied.runId)).toEqual(copied);
    expect(await store.getRun(purged.runId)).toEqual(purged);
    expect(await store.readSteps(copied.runId)).toEqual(rows);
    expect((await store.readBlobs([blobOf('c0c0').digest])).get(blobOf('c0c0').digest)).toBe(BODY);
    await store.close();
  });
});
