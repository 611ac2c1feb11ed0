import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentBuild } from '../../src/agent/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { olderBaseline } from '../../studies/divergence/older-baseline.js';
import { cli, tempFolder } from '../support/cli-harness.js';
import { build, worldAt } from '../support/incident.js';

// Recorded on the morning of 9 March against the world of 4 March; the report runs an hour later.
const NOW = '2026-03-09T09:00:00Z';
const AT = '2026-03-09';

interface JsonEntry {
  recordedRunId: string;
  runId: string;
  source: string;
  step: number | null;
  call: string | null;
}
interface JsonReport {
  mode: string;
  build: string | null;
  runs: number;
  repeats: number;
  total: number;
  skipped: unknown[];
  rows: { source: string; count: number; share: number; entries: JsonEntry[] }[];
}

describe('forkpoint divergence-report', () => {
  const folder = tempFolder('forkpoint-divergence-cli-');
  const db = join(folder.path, 'runs.db');
  const runs: Record<'incident' | 'timestamped' | 'older' | 'disputed', string> = {
    incident: '',
    timestamped: '',
    older: '',
    disputed: '',
  };
  const countRuns = async (): Promise<number> => {
    const store = sqliteStore({ path: db });
    try {
      return (await store.listRuns()).length;
    } finally {
      await store.close();
    }
  };

  beforeAll(async () => {
    let now = Date.parse('2026-03-09T08:00:00.000Z');
    const store = sqliteStore({ path: db });
    const engine = createEngine({ store, clock: () => new Date((now += 1000)) });
    const record = async (agent: AgentBuild, claimId: string, seed: number) =>
      (
        await engine.record({
          agent,
          world: worldAt('2026-03-04', seed),
          input: { claimId },
          scenario: 'scenarios/claims-triage',
        })
      ).runId;
    runs.incident = await record(build('baseline'), 'CLM-91077', 101);
    runs.timestamped = await record(build('timestamped'), 'CLM-91013', 302);
    runs.older = await record(olderBaseline, 'CLM-91002', 401);
    runs.disputed = await record(build('baseline'), 'CLM-91069', 108);
    await store.close();
  });
  afterAll(() => {
    folder.cleanup();
  });

  const report = (...args: string[]) => cli(['divergence-report', '--db', db, '--now', NOW, ...args]);
  const named = () => ['--runs', [runs.incident, runs.timestamped, runs.older, runs.disputed].join(',')];

  it('prints the table: each source with its count and share, the total, and the runs behind each row', async () => {
    const result = await report(...named(), '--at', AT, '--seed', '7');
    expect(result.exit).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(
      `divergence-report · mode reexecution · 4 recorded runs × 1 against the world of ${AT} · each run's own build`,
    );
    expect(result.stdout).toMatch(/^ {2}tool-response +1 +25\.0% /m);
    expect(result.stdout).toMatch(/^ {2}model-response +0 +0\.0% /m);
    expect(result.stdout).toMatch(/^ {2}volatile-request +1 +25\.0% /m);
    expect(result.stdout).toMatch(/^ {2}code +1 +25\.0% /m);
    expect(result.stdout).toMatch(/^ {2}none +1 +25\.0% /m);
    expect(result.stdout).toMatch(/^ {2}total +4 +100\.0% += 4 runs × 1 − 0 skipped$/m);
    expect(result.stdout).toMatch(
      new RegExp(
        `^ {2}${runs.incident} claimId=CLM-91077 #1 -> [0-9a-f]{12} +step 4 ocr_document#0 .*damage_area_cm2`,
        'm',
      ),
    );
    expect(result.stdout).toMatch(
      new RegExp(
        `^ {2}${runs.timestamped} claimId=CLM-91013 #1 -> [0-9a-f]{12} +step 1 model#0 +system: .*T08:00:0`,
        'm',
      ),
    );
    expect(result.stdout).toMatch(
      new RegExp(`^ {2}${runs.older} claimId=CLM-91002 #1 -> [0-9a-f]{12} +step 1 model#0 +system: `, 'm'),
    );
    expect(result.stdout).not.toContain('skipped (');
  });

  it('prints one JSON document with --json, with every re-execution behind its row', async () => {
    const result = await report(
      ...named(),
      '--at',
      AT,
      '--repeats',
      '2',
      '--seed',
      '7',
      '--build',
      'baseline',
      '--json',
    );
    expect(result.exit).toBe(0);
    const parsed = JSON.parse(result.stdout) as JsonReport;
    expect(parsed).toMatchObject({
      mode: 'reexecution',
      build: 'baseline',
      runs: 4,
      repeats: 2,
      total: 8,
      skipped: [],
    });
    expect(parsed.rows.map((row) => row.source)).toEqual([
      'tool-response',
      'model-response',
      'approval',
      'volatile-request',
      'code',
      'simulated',
      'blocked',
      'awaiting-approval',
      'none',
    ]);
    expect(parsed.rows.reduce((sum, row) => sum + row.count, 0)).toBe(8);
    const sourceOf = (runId: string) => [
      ...new Set(
        parsed.rows.flatMap((row) =>
          row.entries.filter((entry) => entry.recordedRunId === runId).map((entry) => entry.source),
        ),
      ),
    ];
    // With --build baseline, the timestamped recording meets a prompt without a timestamp: that is a code change.
    expect(sourceOf(runs.timestamped)).toEqual(['code']);
    expect(sourceOf(runs.older)).toEqual(['code']);
    // Seeds are pinned by --seed 7: the incident's first re-execution (seed 7) meets OCR v2 at step 4, while
    // its second (seed 8) already words its first model call differently, which is sampling.
    expect(sourceOf(runs.incident)).toEqual(['tool-response', 'model-response']);

    const again = JSON.parse(
      (await report(...named(), '--at', AT, '--repeats', '2', '--seed', '7', '--build', 'baseline', '--json')).stdout,
    ) as JsonReport;
    const where = (doc: JsonReport) =>
      doc.rows.flatMap((row) =>
        row.entries.map((entry) => `${entry.recordedRunId} ${entry.source} ${entry.step} ${entry.call}`),
      );
    expect(where(again)).toEqual(where(parsed));
  });

  it('takes every recorded run with --all-recorded, and never the re-executions it made', async () => {
    const result = await report('--all-recorded', '--at', AT, '--seed', '7', '--json');
    expect(result.exit).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ runs: 4, total: 4 });
  });

  it.each([
    [['--runs', 'deadbeef', '--at', AT], 'RUN_NOT_FOUND'],
    [['--runs', 'NOT-AN-ID', '--at', AT], 'USAGE'],
    [['--runs', 'RUNS', '--at', '2026-02-30'], 'USAGE'],
    [['--runs', 'RUNS', '--at', AT, '--repeats', '0'], 'USAGE'],
    [['--at', AT], 'USAGE'],
    [['--runs', 'RUNS', '--all-recorded', '--at', AT], 'USAGE'],
    [['--runs', 'RUNS'], 'USAGE'],
    [['--runs', 'RUNS', '--at', AT, '--build', 'no-such-build'], 'BUILD_NOT_FOUND'],
  ])('exits 2 with a stable code and writes nothing for %j', async (args, code) => {
    const before = await countRuns();
    const filled = args.map((arg) => (arg === 'RUNS' ? `${runs.incident},${runs.older}` : arg));
    const result = await report(...filled, '--json');
    expect(result.exit).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code } });
    expect(result.stderr).toContain(`forkpoint: ${code}: `);
    expect(await countRuns()).toBe(before);
  });

  it('exits 2 without creating a database when there is none', async () => {
    const missing = join(folder.path, 'missing.db');
    const result = await cli(['divergence-report', '--db', missing, '--all-recorded', '--at', AT]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toContain('RUN_NOT_FOUND');
    expect(existsSync(missing)).toBe(false);
  });
});
