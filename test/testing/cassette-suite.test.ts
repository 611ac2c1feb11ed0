import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCassetteFiles } from '../../src/index.js';
import { checkStrictReplay, describeCassettes, forkpointMatchers, readFixture } from '../../src/testing/index.js';
import { baseline, patched, timestamped } from '../../scenarios/claims-triage/index.js';

const FIXTURES = 'test/fixtures/cassettes';

// The committed regression suite: one test per cassette, replayed strictly with the baseline build.
describeCassettes(FIXTURES, { agent: baseline, name: 'claims-triage regression cassettes (baseline)' });

expect.extend(forkpointMatchers);

describe('forkpoint/testing', () => {
  const file = (at: string, claim: string) => join(FIXTURES, at, `${claim}-${at}-baseline.cassette.json`);

  it('holds synthetic claims only: no incident payload is committed', () => {
    const files = findCassetteFiles(FIXTURES);
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const path of files) expect(readFileSync(path, 'utf8')).not.toContain('CLM-91077');
  });

  it('toReplayStrictly passes for the recorded build', async () => {
    await expect(file('2026-03-04', 'CLM-91002')).toReplayStrictly(baseline);
  });

  it('toReplayStrictly fails when the outcome changes (patched refers a faint form baseline approved)', async () => {
    await expect(file('2026-03-04', 'CLM-91058')).not.toReplayStrictly(patched);
    const check = await checkStrictReplay(await readFixture(file('2026-03-04', 'CLM-91058')), patched);
    expect(check.case.status).toBe('failed');
    expect(check.message).toMatch(/recorded completed: approve, replayed completed: refer/);
  });

  it('toReplayStrictly fails when a request hash changes, and says where', async () => {
    const cassette = await readFixture(file('2026-03-09', 'CLM-91013'));
    await expect(cassette).not.toReplayStrictly(timestamped);
    const check = await checkStrictReplay(cassette, timestamped);
    expect(check.message).toMatch(/diverged under timestamped: model#0 \(step 1\).*changed: system\n {2}system: /s);
  });
});
