import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/store/index.js';
import { sqliteStore, startedRunRecord } from '../../src/store/index.js';
import { sampleRun, sampleStep } from '../../src/testing/index.js';
import { tempFolder } from '../support/cli-harness.js';

const CANARY = 'Ada Canarybrook';
const BODY = `{"holder":"${CANARY}","narrative":"${'hail on the roof, '.repeat(30)}"}`;
const DIGEST = '0123456789abcdef0123456789abcdef';

// A finished full-tier run as another store hands it over, its payloads naming the canary.
const copied = (overrides: Partial<RunRecord> = {}): RunRecord => ({
  ...startedRunRecord(sampleRun({ runId: 'c0c0c0c0c0c0', owner: null, input: { holder: CANARY } })),
  status: 'failed',
  error: { code: 'VALIDATION_FAILED', message: `payout for ${CANARY} is negative`, step: 1 },
  finishedAt: '2026-03-04T10:01:00.000Z',
  stepCount: 1,
  ...overrides,
});
const rows = [
  sampleStep(0, { checkpointFull: true }),
  sampleStep(1, { request: `{"holder":"${CANARY}"}`, response: `{"$blob":"${DIGEST}"}` }),
];

describe('a run imported into the SQLite store', () => {
  const folders: Array<{ cleanup(): void }> = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) folder.cleanup();
  });
  const filePath = (): string => {
    const folder = tempFolder('forkpoint-import-');
    folders.push(folder);
    return join(folder.path, 'imported.db');
  };

  it('is sealed at rest as a run recorded there is, and reads back as it was given', async () => {
    const path = filePath();
    const store = sqliteStore({ path });
    await store.importRun(copied(), rows, [{ digest: DIGEST, body: BODY }]);
    expect(await store.getRun('c0c0c0c0c0c0')).toEqual(copied());
    expect(await store.readSteps('c0c0c0c0c0c0')).toEqual(rows);
    expect((await store.readBlobs([DIGEST])).get(DIGEST)).toBe(BODY);
    await store.close();
    expect(readFileSync(path).includes(CANARY)).toBe(false);
  });

  it('keeps a purged run in plain text, as a purge leaves its redacted summary, with no key for its day', async () => {
    const path = filePath();
    const store = sqliteStore({ path });
    const purged = copied({
      input: { holder: 'aaaaaaaaaaaaaaa' },
      error: { code: 'VALIDATION_FAILED', message: 'aaaaaaaaaa', step: 1 },
      purge: { at: '2026-03-08T00:00:00.000Z', reason: 'expired' },
    });
    await store.importRun(purged, [], [], '{"shape":true}');
    expect(await store.getRun('c0c0c0c0c0c0')).toEqual(purged);
    expect(await store.exportKey('full:2026-03-07')).toBeUndefined();
    await store.close();
    expect(readFileSync(path).includes('aaaaaaaaaaaaaaa')).toBe(true);
  });
});
