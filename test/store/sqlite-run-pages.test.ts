import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunQuery, Store } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from '../../src/testing/index.js';
import { tempFolder } from '../support/cli-harness.js';
import type { Executed } from '../support/sqlite-statements.js';
import { executedBy } from '../support/sqlite-statements.js';

const folder = tempFolder('forkpoint-run-pages-');
const path = join(folder.path, 'pages.db');
const id = (n: number) => n.toString(16).padStart(8, '0');
const at = (n: number) => new Date(Date.UTC(2026, 2, 4, 0, n)).toISOString();
let store: Store;

// 200 runs a minute apart, of every mode in turn, a third failed; the three oldest of build patched, the
// two newest of scenario rare, two in the middle of build lone and scenario lone.
beforeAll(async () => {
  store = sqliteStore({ path });
  const modes = ['record', 'replay:strict', 'replay:fidelity', 'reexecution', 'fork'] as const;
  for (let n = 1; n <= 200; n++) {
    const lone = n === 100 || n === 101;
    await store.createRun(
      sampleRun({
        runId: id(n),
        createdAt: at(n),
        mode: modes[n % modes.length]!,
        build: n <= 3 ? 'patched' : lone ? 'lone' : 'baseline',
        scenario: n >= 199 ? 'rare' : lone ? 'lone' : 'common',
      }),
      sampleStep(0, { checkpointFull: true }),
      [],
    );
    if (n % 3 === 0)
      await store.finishRun(id(n), SAMPLE_OWNER_TOKEN, {
        status: 'failed',
        outcome: null,
        error: { code: 'VALIDATION_FAILED', message: 'no', step: 1 },
        finishedAt: at(n),
      });
  }
});
afterAll(async () => {
  await store.close();
  folder.cleanup();
});

const VALUES = {
  since: { since: at(20) },
  until: { until: at(190) },
  before: { before: id(180) },
  mode: { mode: 'fork' },
  status: { status: 'failed' },
  build: { build: 'baseline' },
  scenario: { scenario: 'common' },
} as const satisfies Record<string, Partial<RunQuery>>;
const MATCHES = ['mode', 'status', 'build', 'scenario'] as const;

// The statements a page ran, each with its plan.
async function plansOf(query: RunQuery): Promise<Array<Executed & { plan: string[] }>> {
  const executed = await executedBy(() => store.queryRuns(query));
  const db = new Database(path, { readonly: true });
  try {
    return executed.map((statement) => ({
      ...statement,
      plan: (db.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.args) as Array<{ detail: string }>).map(
        (row) => row.detail,
      ),
    }));
  } finally {
    db.close();
  }
}
const walkedBy = (statements: ReadonlyArray<{ sql: string }>): string | undefined =>
  statements
    .filter((statement) => statement.sql.includes('ORDER BY created_at DESC'))
    .map((statement) => /INDEXED BY (\w+)/.exec(statement.sql)?.[1])[0];

describe('a page of runs in SQLite', () => {
  it('serves every combination of filters through an index, in the order of the listing, never sorting', async () => {
    const names = Object.keys(VALUES) as Array<keyof typeof VALUES>;
    for (let mask = 0; mask < 1 << names.length; mask++) {
      const given = names.filter((_, i) => (mask & (1 << i)) !== 0);
      const query: RunQuery = Object.assign({ limit: 10 }, ...given.map((name) => VALUES[name])) as RunQuery;
      const statements = await plansOf(query);
      const plans = statements.flatMap((statement) => statement.plan);
      // No table scan (a scan of an index, or of a subquery's rows, is not one), no sort.
      expect({ given, scans: plans.filter((detail) => /^SCAN \w+$/.test(detail)) }).toEqual({ given, scans: [] });
      expect({ given, sorts: plans.filter((detail) => /TEMP B-TREE/.test(detail)) }).toEqual({ given, sorts: [] });
      const matched = MATCHES.filter((name) => given.includes(name));
      const index = walkedBy(statements);
      if (matched.length === 0) expect({ given, index }).toEqual({ given, index: 'runs_by_created_at' });
      else
        expect({ given, index: matched.map((name) => `runs_by_${name}`).includes(index ?? '') }).toEqual({
          given,
          index: true,
        });
      // Every filter given bounds the walk: only the page that has none reads its index from the end.
      const page = statements.find((statement) => statement.sql.includes('ORDER BY created_at DESC'));
      const walk = page?.plan.find((detail) => / runs /.test(` ${detail} `)) ?? '';
      expect({ given, walk: walk.startsWith(given.length === 0 ? 'SCAN' : 'SEARCH') }).toEqual({ given, walk: true });
    }
  });

  it('walks the index of the filter that matches fewest runs inside the page, the first listed on a tie', async () => {
    const walk = async (query: RunQuery) => {
      let runs: string[] = [];
      const statements = await executedBy(async () => {
        runs = (await store.queryRuns(query)).map((run) => run.runId);
      });
      return { index: walkedBy(statements), runs };
    };
    // patched: 3 runs; rare: 2.
    expect(await walk({ limit: 5, build: 'patched', scenario: 'common' })).toEqual({
      index: 'runs_by_build',
      runs: [id(3), id(2), id(1)],
    });
    expect(await walk({ limit: 5, build: 'baseline', scenario: 'rare' })).toEqual({
      index: 'runs_by_scenario',
      runs: [id(200), id(199)],
    });
    // Counted inside the page's ranges: after run 150 no run is patched, which matches fewest there.
    expect(await walk({ limit: 5, build: 'patched', scenario: 'rare' })).toEqual({
      index: 'runs_by_scenario',
      runs: [],
    });
    expect(await walk({ limit: 5, build: 'patched', scenario: 'rare', since: at(150) })).toEqual({
      index: 'runs_by_build',
      runs: [],
    });
    // lone: 2 runs of each; the build comes first.
    expect(await walk({ limit: 5, build: 'lone', scenario: 'lone' })).toEqual({
      index: 'runs_by_build',
      runs: [id(101), id(100)],
    });
    // Before run 180, 36 forks (every fifth run) and 59 failed runs (every third): the mode's index.
    expect(await walk({ limit: 2, mode: 'fork', status: 'failed', before: id(180) })).toEqual({
      index: 'runs_by_mode',
      runs: [id(174), id(159)],
    });
  });
});
