import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';

let folder: ReturnType<typeof tempFolder>;
let db: string;
beforeEach(async () => {
  folder = tempFolder('forkpoint-drift-cli-');
  db = join(folder.path, 'forkpoint.db');
  expect(
    (
      await cli([
        'record',
        'scenarios/claims-triage',
        '--claim',
        'CLM-91077',
        '--at',
        '2026-03-04',
        '--run-id',
        '9b40c1d5',
        '--db',
        db,
      ])
    ).exit,
  ).toBe(1);
});
afterEach(() => {
  folder.cleanup();
});

describe('forkpoint drift', () => {
  it('reports the step-4 OCR change and writes no run', async () => {
    const text = await cli(['drift', '9b40c1d5', '--at', '2026-03-09', '--db', db]);
    expect(text.exit).toBe(0);
    expect(text.stdout).toMatch(
      /^drift · run 9b40c1d5 · recorded against the world of 2026-03-04, asked again against 2026-03-09/,
    );
    expect(text.stdout).toMatch(/ocr_document#0 \(step 4\): .*fields\.damage_area_cm2\.value 205 -> 2050/);
    expect(text.stdout).toMatch(/estimate_repair#0 \(step 6\): skipped, not read-only/);
    expect(text.stdout).toMatch(/1 changed, 2 unchanged, 1 skipped/);
    const json = await cli(['drift', '9b40c1d5', '--at', '2026-03-09', '--db', db, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ mode: 'drift', changed: 1 });
    const runs = JSON.parse((await cli(['runs', '--db', db, '--json'])).stdout).runs;
    expect(runs).toHaveLength(1);
  });

  it('rejects a missing or malformed date and an unknown run with exit 2', async () => {
    for (const args of [
      ['drift', '9b40c1d5'],
      ['drift', '9b40c1d5', '--at', '2026-3-9'],
      ['drift', 'deadbeef', '--at', '2026-03-09'],
    ]) {
      const result = await cli([...args, '--db', db]);
      expect(result.exit, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^forkpoint: [A-Z_]+: /);
    }
  });
});

describe('forkpoint lint', () => {
  it('flags timestamped at its system prompt (exit 1) and passes baseline (exit 0)', async () => {
    const flagged = await cli(['lint', 'scenarios/claims-triage', '--build', 'timestamped']);
    expect(flagged.exit).toBe(1);
    expect(flagged.stdout).toMatch(
      /FLAGGED system\[\d+\.\.\d+\]: "2026-03-04T09:00:00\.000Z" vs "2026-03-05T17:31:07\.123Z" \(ISO 8601 timestamp\)/,
    );
    expect(flagged.stdout).toMatch(/prompt cache can reuse: \d+ of \d+ bytes stay cacheable/);
    const clean = await cli([
      'lint',
      'scenarios/claims-triage',
      '--build',
      'baseline',
      '--claim',
      'CLM-91002',
      '--json',
    ]);
    expect(clean.exit).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ mode: 'lint', flagged: false, input: { claimId: 'CLM-91002' } });
  });

  it('rejects an unknown build with exit 2', async () => {
    const result = await cli(['lint', 'scenarios/claims-triage', '--build', 'nope']);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(/^forkpoint: BUILD_NOT_FOUND: /);
  });
});
