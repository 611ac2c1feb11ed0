import { describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/index.js';
import { createEngine } from '../../src/engine/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { serializeCassette } from '../../src/cassette/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { build, worldAt } from '../support/incident.js';

const RECORDED = new Date('2026-03-04T09:00:00.000Z');
const hoursLater = (hours: number) => new Date(RECORDED.getTime() + hours * 3_600_000);

async function recorded(): Promise<{ engine: Engine; setNow: (now: Date) => void }> {
  let now = RECORDED;
  const engine = createEngine({ store: sqliteStore({ path: ':memory:' }), clock: () => now });
  await engine.record({
    agent: build('baseline'),
    world: worldAt('2026-03-04'),
    input: { claimId: 'CLM-91077' },
    runId: '9b40c1d5',
  });
  return { engine, setNow: (next) => (now = next) };
}

async function failure(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    return isForkpointError(error) ? `${error.code}: ${error.message}` : `not a ForkpointError: ${String(error)}`;
  }
  return 'no failure';
}

describe('sealed exports', () => {
  it("seals a full tier with the store's key: no payload in the file, and it opens back to the same cassette in the store that made it", async () => {
    const { engine } = await recorded();
    const exported = await engine.exportCassette('9b40c1d5');
    expect(exported.form).toBe('sealed');
    const file = JSON.parse(exported.text) as { format: string; header: Record<string, unknown>; ciphertext: string };
    expect(file).toMatchObject({
      format: 'forkpoint-sealed-cassette/1',
      header: {
        runId: '9b40c1d5',
        tier: 'full',
        expiresAt: '2026-03-07T09:00:00.000Z',
        key: 'full:2026-03-07',
        store: (await engine.settings()).storeId,
      },
    });
    for (const payload of ['CLM-91077', 'DOC-77120', 'damage_area_cm2', 'Hail'])
      expect(exported.text).not.toContain(payload);
    expect(serializeCassette(await engine.readCassette(exported.text, 'incident.json'))).toBe(
      serializeCassette(await engine.cassette('9b40c1d5')),
    );
  });

  it.each([
    [
      'its expiry moved',
      (file: Record<string, Record<string, unknown>>) => (file.header!.expiresAt = '2099-01-01T00:00:00.000Z'),
      /does not open with its key: its header or content was changed/,
    ],
    [
      'its expiry removed',
      (file: Record<string, Record<string, unknown>>) => (file.header!.expiresAt = null),
      /does not open with its key/,
    ],
    [
      'its tier made synthetic',
      (file: Record<string, Record<string, unknown>>) => (file.header!.tier = 'synthetic'),
      /its header must name .* tier full/,
    ],
    [
      'its content changed',
      (file: Record<string, Record<string, unknown>>) =>
        (file.ciphertext = `A${(file.ciphertext as unknown as string).slice(1)}` as never),
      /does not open with its key/,
    ],
    [
      'its tag cut short',
      (file: Record<string, Record<string, unknown>>) =>
        (file.tag = (file.tag as unknown as string).slice(0, 8) as never),
      /does not open with its key/,
    ],
  ])('refuses a sealed file with %s', async (_what, edit, message) => {
    const { engine } = await recorded();
    const file = JSON.parse((await engine.exportCassette('9b40c1d5')).text) as Record<string, Record<string, unknown>>;
    edit(file);
    expect(await failure(async () => await engine.readCassette(JSON.stringify(file), 'edited.json'))).toMatch(
      new RegExp(`^CASSETTE_INVALID: .*${message.source}`),
    );
  });

  it('opens only in the store that sealed it, and no longer once gc has deleted its key with its day', async () => {
    const { engine, setNow } = await recorded();
    const text = (await engine.exportCassette('9b40c1d5')).text;
    const other = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    expect(await failure(async () => await other.readCassette(text, 'incident.json'))).toMatch(
      /^CASSETTE_SEALED: cassette incident.json was sealed by store [0-9a-f]{16}, and :memory: is store [0-9a-f]{16}/,
    );
    setNow(hoursLater(73));
    expect((await engine.gc()).keys).toBe(0);
    // The day the key covers ends at midnight after the expiry: only then is it gone, and with it every copy.
    setNow(new Date('2026-03-08T00:00:00.000Z'));
    expect((await engine.gc()).keys).toBe(1);
    expect(await engine.store.exportKey('full:2026-03-07')).toBeUndefined();
    expect(await failure(async () => await engine.readCassette(text, 'incident.json'))).toMatch(
      /^CASSETTE_EXPIRED: cassette incident.json expired at 2026-03-07T09:00:00.000Z, and the key that sealed it \(full:2026-03-07\) was deleted/,
    );
  });

  it('writes a plaintext full tier only when asked, saying what it is, signed so that an edited tier or expiry is refused', async () => {
    const { engine, setNow } = await recorded();
    const exported = await engine.exportCassette('9b40c1d5', { plaintext: true });
    expect(exported.form).toBe('plaintext');
    expect(exported.text).toContain('CLM-91077');
    const plain = JSON.parse(exported.text) as Record<string, unknown>;
    expect(plain.plaintext).toMatch(/a plaintext copy of customer payloads: no program can recall/);
    expect((await engine.readCassette(exported.text, 'plain.json')).source.runId).toBe('9b40c1d5');
    expect(
      await failure(
        async () =>
          await engine.readCassette(JSON.stringify({ ...plain, expiresAt: '2099-01-01T00:00:00.000Z' }), 'plain.json'),
      ),
    ).toMatch(/^CASSETTE_INVALID: .*does not match its seal/);
    expect(
      await failure(async () => engine.readCassette(JSON.stringify({ ...plain, expiresAt: undefined }), 'plain.json')),
    ).toMatch(/^CASSETTE_INVALID: .*does not match its seal/);
    const { seal: _seal, ...unsealed } = plain;
    expect(await failure(async () => await engine.readCassette(JSON.stringify(unsealed), 'plain.json'))).toMatch(
      /^CASSETTE_INVALID: .*a full tier in the clear without its store's seal/,
    );
    // Past its expiry a replay refuses it, whatever the store still holds.
    setNow(hoursLater(73));
    const replayed = engine.replay({
      agent: build('baseline'),
      cassette: await engine.readCassette(exported.text, 'plain.json'),
      cassetteFile: 'plain.json',
      mode: 'strict',
    });
    await expect(replayed).rejects.toMatchObject({ code: 'CASSETTE_EXPIRED' });
  });

  it('writes the structural and synthetic tiers open: they hold no customer payload', async () => {
    const { engine } = await recorded();
    expect((await engine.exportCassette('9b40c1d5', { tier: 'structural' })).form).toBe('open');
    await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      input: { claimId: 'CLM-91002' },
      runId: '5e000001',
      tier: 'synthetic',
    });
    const synthetic = await engine.exportCassette('5e000001');
    expect(synthetic.form).toBe('open');
    const elsewhere = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    expect((await elsewhere.readCassette(synthetic.text, 'fixture.json')).tier).toBe('synthetic');
  });

  it('reads expiries as instants, and refuses one that is not ISO 8601', async () => {
    const { engine, setNow } = await recorded();
    const plain = JSON.parse((await engine.exportCassette('9b40c1d5', { tier: 'structural' })).text) as Record<
      string,
      unknown
    >;
    setNow(new Date('2026-03-04T12:00:00.000Z'));
    // 20:00 in Tokyo is 11:00 UTC: an hour ago, though "2026-03-04T20…" sorts after "2026-03-04T12…" as text.
    const tokyo = JSON.stringify({ ...plain, expiresAt: '2026-03-04T20:00:00+09:00' });
    await expect(
      engine.replay({
        agent: build('baseline'),
        cassette: await engine.readCassette(tokyo, 'tokyo.json'),
        mode: 'structural',
        cassetteFile: 'tokyo.json',
      }),
    ).rejects.toMatchObject({ code: 'CASSETTE_EXPIRED' });
    const rfc2822 = JSON.stringify({ ...plain, expiresAt: 'Wed, 04 Mar 2099 20:00:00 GMT' });
    expect(await failure(async () => await engine.readCassette(rfc2822, 'old.json'))).toMatch(
      /^CASSETTE_INVALID: .*expiresAt must be an ISO 8601 timestamp with a zone/,
    );
  });
});

describe('retention periods per store', () => {
  it("stamps runs with the store's periods, changed for runs made afterwards only", async () => {
    const { engine } = await recorded();
    expect(await engine.settings()).toMatchObject({ fullRetentionHours: 72, structuralRetentionDays: 90 });
    await engine.updateSettings({ fullRetentionHours: 24 * 14, structuralRetentionDays: 365 });
    const later = await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      input: { claimId: 'CLM-91002' },
      runId: '7e000001',
    });
    expect(later.retention).toMatchObject({
      expiresAt: '2026-03-18T09:00:00.000Z',
      structuralExpiresAt: '2027-03-04T09:00:00.000Z',
    });
    expect((await engine.getRunSummary('9b40c1d5')).retention.expiresAt).toBe('2026-03-07T09:00:00.000Z');
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(await failure(async () => await engine.updateSettings({ fullRetentionHours: bad }))).toMatch(
        /^USAGE: the full-tier period \(hours\) must be a whole number/,
      );
    }
    expect((await engine.settings()).fullRetentionHours).toBe(24 * 14);
  });
});
