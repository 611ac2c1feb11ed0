import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { sealingKeyFor, serializeCassette } from '../../src/cassette/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { createPayloadSealer } from '../../src/store/sealing/payload-sealer.js';
import scenario from '../../scenarios/claims-triage/index.js';
import { build } from '../support/incident.js';
import { cannedCase } from '../support/canary-case.js';
import { tempFolder } from '../support/cli-harness.js';

// Strings that must not survive their tier: a name, an email and a policy number planted in a claim.
const CANARIES = ['Quillon Canaryfeather', 'quillon.canaryfeather@example.com', 'POL-CANARY7731'];
// Planted by a fork's override: it reaches the fork's summary (its override and what it changed) and rows.
const FORK_CANARY = 'Fernhollow Canaryweather';
const RECORDED = new Date('2026-03-04T09:00:00.000Z');

const FILES = ['', '-wal', '-shm'];

/** Every byte the database keeps on disk: the file, its write-ahead log and its shared-memory index. */
const diskBytes = (path: string): string =>
  FILES.map((suffix) => (existsSync(path + suffix) ? readFileSync(path + suffix).toString('latin1') : '')).join('');

/** The canary case recorded into the database at `path`, with the clock at `now()`. */
async function recordCanaries(path: string, now: () => Date, tier?: 'synthetic') {
  const engine = createEngine({ store: sqliteStore({ path }), clock: now });
  const support = scenario.synthetic!;
  const testCase = support.parseCase(cannedCase(CANARIES), 'canary.json');
  const world = () => support.openWorld(testCase, { at: testCase.at, seed: 1, latencyMs: 0 });
  const agent = build('baseline');
  const run = await engine.record({
    agent,
    world: world(),
    input: testCase.input,
    ...(tier === undefined ? {} : { tier }),
  });
  return { engine, run, agent, world };
}

// Every sealed value in a copy of a database: the steps' payload columns and the blobs' bodies.
function sealedValuesIn(path: string): Array<string | Buffer> {
  const db = new Database(path, { readonly: true });
  try {
    const steps = db.prepare('SELECT request, response, message, checkpoint FROM steps').raw().all() as Array<
      Array<string | null>
    >;
    const bodies = db.prepare('SELECT body FROM blobs WHERE body IS NOT NULL').pluck().all() as Array<string | Buffer>;
    const runs = db.prepare('SELECT input, override, override_changes FROM runs').raw().all() as Array<
      Array<string | null>
    >;
    return [...steps.flat(), ...bodies, ...runs.flat()].filter(
      (value): value is string | Buffer => value !== null && (typeof value !== 'string' || value.startsWith('sealed:')),
    );
  } finally {
    db.close();
  }
}

describe('canaries planted in a claim', () => {
  const folders: Array<{ cleanup(): void }> = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) folder.cleanup();
  });

  it('are sealed at rest while their run lives, and appear in no byte of the structural cassette, nor of the database after gc', async () => {
    const folder = tempFolder('forkpoint-canary-');
    folders.push(folder);
    const path = join(folder.path, 'canary.db');
    let now = RECORDED;
    const { engine, run, agent, world } = await recordCanaries(path, () => now);
    expect(run.outcome).toMatchObject({ decision: 'approve' });
    const fork = await engine.fork({
      parentRunId: run.runId,
      atStep: 2,
      agent,
      world: world(),
      override: { kind: 'tool-merge', patch: { assessorNote: `called ${FORK_CANARY}` } },
    });
    const full = serializeCassette(await engine.cassette(run.runId));
    const forkFull = serializeCassette(await engine.cassette(fork.runId));
    const structural = serializeCassette(await engine.cassette(run.runId, 'structural'));
    // Planted: the full tier holds each canary, in tool output and in what the model wrote (it asks for the
    // policy by its number), so the checks below can fail.
    for (const canary of CANARIES) {
      expect(full).toContain(canary);
      expect(structural).not.toContain(canary);
    }
    expect(JSON.stringify(run.steps.filter((step) => step.kind === 'model').map((step) => step.response))).toContain(
      CANARIES[2],
    );
    expect(forkFull).toContain(FORK_CANARY);
    expect(JSON.stringify((await engine.getRun(fork.runId)).parent)).toContain(FORK_CANARY);

    // While the runs live, every payload is sealed: not one canary is readable in the file, its log or its index.
    const live = diskBytes(path);
    for (const canary of [...CANARIES, FORK_CANARY]) expect(live).not.toContain(canary);
    // The same case in a run kept for good (no expiry, nothing to shred) is stored in plain text, where the scan finds it.
    const plainPath = join(folder.path, 'plain.db');
    const plain = await recordCanaries(plainPath, () => now, 'synthetic');
    for (const canary of CANARIES) expect(diskBytes(plainPath)).toContain(canary);
    await plain.engine.store.close();

    // A copy of the file as it is now: what a backup, or a disk's free blocks, could still hold after gc.
    const keyId = sealingKeyFor((await engine.store.getRun(run.runId))!.expiresAt!).id;
    const secret = (await engine.store.exportKey(keyId))!.secret;
    const copy = join(folder.path, 'before-gc.db');
    for (const suffix of FILES) if (existsSync(path + suffix)) copyFileSync(path + suffix, copy + suffix);

    now = new Date('2026-03-08T00:00:00.000Z');
    expect((await engine.gc()).purged.map((purged) => purged.runId)).toEqual([run.runId, fork.runId]);
    expect(await engine.store.exportKey(keyId)).toBeUndefined();
    const after = diskBytes(path);
    for (const canary of [...CANARIES, FORK_CANARY]) expect(after).not.toContain(canary);
    // The key is gone from every file, zeroed by secure_delete and not left in the log.
    expect(live).toContain(Buffer.from(secret).toString('latin1'));
    expect(after).not.toContain(Buffer.from(secret).toString('latin1'));
    expect((await engine.cassette(run.runId, 'structural')).entries).toHaveLength(run.steps.length);

    // The copy's ciphertext does not open with the keys the store holds now; with the copy's own key it
    // opens, and holds the canaries: crypto-shredding recalls every copy the disk kept.
    const values = sealedValuesIn(copy);
    expect(values.length).toBeGreaterThan(20);
    const now_ = createPayloadSealer({ keys: () => undefined });
    expect(values.every((value) => now_.tryOpen(value) === undefined)).toBe(true);
    const then = createPayloadSealer({ keys: (id) => (id === keyId ? secret : undefined) });
    const opened = values.map((value) => then.open(value)).join('\n');
    for (const canary of [...CANARIES, FORK_CANARY]) expect(opened).toContain(canary);
    await engine.store.close();
  });
});
