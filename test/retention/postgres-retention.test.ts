import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { expect, it } from 'vitest';
import { sealingKeyFor, serializeCassette } from '../../src/cassette/index.js';
import { createEngine } from '../../src/engine/index.js';
import { postgresStore } from '../../src/store/index.js';
import scenario from '../../scenarios/claims-triage/index.js';
import { cannedCase } from '../support/canary-case.js';
import { build } from '../support/incident.js';
import { describePostgres, dropFreshSchemasAfterAll, freshSchemaName, postgresTestUrl } from '../support/postgres.js';

// Strings that must not survive their tier, fresh for each run of the suite: a server's files keep what
// earlier runs wrote, and a canary of another run must not be taken for this one's.
const TAG = randomBytes(4).toString('hex');
const canariesOf = (tag: string): string[] => [
  `Quillon Canaryfeather ${tag}`,
  `quillon.${tag}@example.com`,
  `POL-CANARY${tag.toUpperCase()}`,
];
const CANARIES = canariesOf(TAG);
// Planted by a fork's override: it reaches the fork's summary (its override and what it changed) and rows.
const FORK_CANARY = `Fernhollow Canaryweather ${TAG}`;
// The same case in a run kept for good (no expiry, nothing to shred), whose payloads are stored plain.
const PLAIN_CANARIES = canariesOf(randomBytes(4).toString('hex'));
// And in a run whose full tier outlasts the gc below: sealed under a key that stays.
const LASTING_CANARIES = canariesOf(randomBytes(4).toString('hex'));

/** How many times each needle (text as UTF-8, or bytes) occurs in the files under `dir`, read as bytes. */
function occurrences(dir: string, needles: ReadonlyArray<string | Uint8Array>): number[] {
  const counts = needles.map(() => 0);
  const patterns = needles.map((needle) => (typeof needle === 'string' ? Buffer.from(needle, 'utf8') : needle));
  const visit = (path: string): void => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
      return;
    }
    if (!stat.isFile()) return;
    const bytes = readFileSync(path);
    patterns.forEach((pattern, i) => {
      for (let at = bytes.indexOf(pattern); at !== -1; at = bytes.indexOf(pattern, at + 1)) counts[i]! += 1;
    });
  };
  visit(dir);
  return counts;
}

dropFreshSchemasAfterAll();

describePostgres('retention on PostgreSQL removes payload bytes, not only rows', () => {
  it("leaves no planted payload readable in the server's files or in a pg_dump, while the run is live and after gc", async () => {
    const url = postgresTestUrl() ?? '';
    const schema = freshSchemaName();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const dataDirectory =
        (await admin.query<{ data_directory: string }>('SHOW data_directory')).rows[0]?.data_directory ?? '';
      const onDisk = async (needles: ReadonlyArray<string | Uint8Array>) => {
        // Everything committed reaches the data files: the write-ahead log at once, the tables at a checkpoint.
        await admin.query('CHECKPOINT');
        return occurrences(dataDirectory, needles);
      };
      // A dump writes bytea columns (a step's payloads, a blob's body) in hex: a needle counts in either form.
      const dumped = (needles: readonly string[]) => {
        const dump = execFileSync('pg_dump', ['--dbname', url, '--schema', schema], {
          encoding: 'utf8',
          maxBuffer: 1 << 28,
        });
        const count = (text: string): number => dump.split(text).length - 1;
        return needles.map((needle) => count(needle) + count(Buffer.from(needle, 'utf8').toString('hex')));
      };

      let now = new Date('2026-03-04T09:00:00.000Z');
      const engine = createEngine({ store: postgresStore({ connectionString: url, schema }), clock: () => now });
      const support = scenario.synthetic!;
      const agent = build('baseline');
      const recordCase = (canaries: readonly string[], tier?: 'synthetic') => {
        const testCase = support.parseCase(cannedCase(canaries), 'canary.json');
        return engine.record({
          agent,
          world: support.openWorld(testCase, { at: testCase.at, seed: 1, latencyMs: 0 }),
          input: testCase.input,
          ...(tier === undefined ? {} : { tier }),
        });
      };
      // Recorded first, so that its key is the first row of the key table's page: the deleted key's row
      // comes after it, where a plain vacuum would leave its bytes in the page's free space.
      await engine.store.updateSettings({ fullRetentionHours: 240 });
      const lasting = await recordCase(LASTING_CANARIES);
      await engine.store.updateSettings({ fullRetentionHours: 72 });
      const run = await recordCase(CANARIES);
      expect(run.outcome).toMatchObject({ decision: 'approve' });
      const fork = await engine.fork({
        parentRunId: run.runId,
        atStep: 2,
        agent,
        world: support.openWorld(support.parseCase(cannedCase(CANARIES), 'canary.json'), {
          at: '2026-03-04',
          seed: 1,
          latencyMs: 0,
        }),
        override: { kind: 'tool-merge', patch: { assessorNote: `called ${FORK_CANARY}` } },
      });
      const plain = await recordCase(PLAIN_CANARIES, 'synthetic');
      // Planted: the runs' full tiers hold every canary, in tool output and in what the model wrote (it asks
      // for the policy by its number), and in the fork's summary, so the scans below could find them.
      const full = serializeCassette(await engine.cassette(run.runId));
      for (const canary of CANARIES) expect(full).toContain(canary);
      expect(JSON.stringify(run.steps.filter((step) => step.kind === 'model').map((step) => step.response))).toContain(
        CANARIES[2],
      );
      expect(serializeCassette(await engine.cassette(fork.runId))).toContain(FORK_CANARY);
      expect(JSON.stringify((await engine.getRun(fork.runId)).parent)).toContain(FORK_CANARY);
      // The scans can find what the server keeps in plain text: the run's id is in its files and in the dump,
      // and so is every canary of the run kept for good, in the same tables and columns as the sealed ones.
      const control = [run.runId, ...PLAIN_CANARIES];
      expect((await onDisk(control)).every((count) => count > 0)).toBe(true);
      expect(dumped(control).every((count) => count > 0)).toBe(true);
      // Sealed at rest: not one canary is readable even while the runs are live.
      const sealed = [...CANARIES, FORK_CANARY, ...LASTING_CANARIES];
      expect(await onDisk(sealed)).toEqual(sealed.map(() => 0));
      expect(dumped(sealed)).toEqual(sealed.map(() => 0));

      // The keys that seal them, in the key table's file (the first one nowhere under base/ once it is gone).
      const secretOf = async (runId: string): Promise<Uint8Array> => {
        const keyId = sealingKeyFor((await engine.store.getRun(runId))!.expiresAt!).id;
        return (await engine.store.exportKey(keyId))!.secret;
      };
      const keyId = sealingKeyFor((await engine.store.getRun(run.runId))!.expiresAt!).id;
      const secret = await secretOf(run.runId);
      const lastingSecret = await secretOf(lasting.runId);
      const tables = join(dataDirectory, 'base');
      expect((await onDisk([secret, lastingSecret])).every((count) => count > 0)).toBe(true);

      now = new Date('2026-03-08T10:00:00.000Z');
      const report = await engine.gc();
      expect(report.purged.map((purged) => purged.runId)).toEqual([run.runId, fork.runId]);
      expect(report.keys).toBe(1);
      expect(await engine.store.exportKey(keyId)).toBeUndefined();
      expect(await onDisk(sealed)).toEqual(sealed.map(() => 0));
      expect(dumped(sealed)).toEqual(sealed.map(() => 0));
      expect((await onDisk(control)).every((count) => count > 0)).toBe(true);
      // The deleted key's 32 bytes are in no data file of any table, since compact rewrote the key table
      // (VACUUM FULL); the key that stays is still found there. The write-ahead log (pg_wal) may well hold
      // the deleted key until its segments are recycled, as it holds every row written: nothing is asserted
      // of it for the key (the README says so).
      await admin.query('CHECKPOINT');
      const [deleted, kept] = occurrences(tables, [secret, lastingSecret]);
      expect(deleted).toBe(0);
      expect(kept).toBeGreaterThan(0);
      // The run's shape outlives its payloads; the runs kept for good and kept longer are whole.
      expect((await engine.cassette(run.runId, 'structural')).entries).toHaveLength(run.steps.length);
      expect(serializeCassette(await engine.cassette(plain.runId))).toContain(PLAIN_CANARIES[0]);
      expect(serializeCassette(await engine.cassette(lasting.runId))).toContain(LASTING_CANARIES[0]);
      await engine.store.close();
    } finally {
      await admin.end();
    }
  }, 120_000);
});
