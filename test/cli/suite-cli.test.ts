import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findCassetteFiles } from '../../src/cassette/index.js';
import { cli, tempFolder } from '../support/cli-harness.js';

const folder = 'test/fixtures/cassettes/2026-03-04';
const count = findCassetteFiles(folder).length;
const suiteArgs = ['suite', folder, '--scenario', 'scenarios/claims-triage', '--build', 'baseline'];
let cleanup = (): void => {};
afterEach(() => {
  cleanup();
});

describe('forkpoint suite, one cassette at a time', () => {
  it('draws its progress bar case by case on a terminal and lists every case', async () => {
    const result = await cli([...suiteArgs, '--json'], { stderrTty: true });
    expect(result.exit).toBe(0);
    const drawn = result.stderr.split('\r').filter((line) => line.length > 0);
    expect(drawn.map((line) => line.trim().split(' ').pop())).toEqual(
      Array.from({ length: count }, (_, i) => `${i + 1}/${count}`),
    );
    const body = JSON.parse(result.stdout) as { cases: Array<Record<string, unknown>> };
    expect(body.cases).toHaveLength(count);
    expect(body.cases.every((item) => !('cassette' in item))).toBe(true);
  });

  it('keeps its replays in the database --db names', async () => {
    const temp = tempFolder('forkpoint-suite-');
    cleanup = temp.cleanup;
    const db = join(temp.path, 'suite.db');
    const kept = JSON.parse((await cli([...suiteArgs, '--db', db, '--json'])).stdout) as {
      cases: Array<{ runId: string }>;
    };
    const runs = JSON.parse((await cli(['runs', '--db', db, '--json'])).stdout) as {
      runs: Array<{ runId: string; mode: string }>;
    };
    expect(runs.runs.map((run) => run.runId).sort()).toEqual(kept.cases.map((item) => item.runId).sort());
    expect(runs.runs.every((run) => run.mode === 'replay:strict')).toBe(true);
  });
});
