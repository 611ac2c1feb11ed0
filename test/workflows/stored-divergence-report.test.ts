import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import type { DivergenceReportDocument, ReexecutionPlan } from '../../src/workflows/index.js';
import {
  divergenceReport,
  divergenceReportDocument,
  storedDivergenceReport,
  storedDivergenceReports,
} from '../../src/workflows/index.js';
import { DIVERGENCE_SOURCES } from '../../src/analysis/index.js';
import type { StudyRun } from '../../studies/divergence/record-study.js';
import { recordDivergenceStudy } from '../../studies/divergence/record-study.js';
import { build, worldAt, worldsAt } from '../support/incident.js';
import { deterministicEngine } from '../support/deterministic-engine.js';

const AT = '2026-03-09';
const REPEATS = 2;

let seedDraws = 0;
const plan = (run: { agent: { build: string } }): ReexecutionPlan => ({
  agent: build(run.agent.build),
  world: worldsAt(AT, () => (seedDraws++ * 0.6180339887) % 1),
  scenario: 'scenarios/claims-triage',
});

/** Every run record as the store holds it: what a read-only report must leave exactly as it was. */
const storeContents = async (engine: Engine): Promise<string> => JSON.stringify(await engine.store.listRuns());

const emptyRows = DIVERGENCE_SOURCES.map((source) => ({ source, count: 0, share: 0, entries: [] }));

describe('storedDivergenceReport over the re-executions divergenceReport stored', () => {
  let engine: Engine;
  let study: StudyRun[];
  let made: DivergenceReportDocument;
  let before: string;

  beforeAll(async () => {
    engine = deterministicEngine();
    study = await recordDivergenceStudy(engine);
    const report = await divergenceReport(engine, {
      runIds: study.map((run) => run.runId),
      repeats: REPEATS,
      plan,
      sideEffects: { tools: { estimate_repair: 'live' } },
    });
    made = divergenceReportDocument(report, AT, null);
    before = await storeContents(engine);
  });

  it('gives the document divergence-report printed, for the same runs, from the store alone', async () => {
    const stored = await storedDivergenceReport(engine, { at: AT, runIds: study.map((run) => run.runId) });
    // The one run kept only in its structural tier: the workflow could not re-execute it, the store cannot read it.
    const [skip] = made.skipped;
    expect(made.skipped).toHaveLength(1);
    expect(stored).toEqual({
      ...made,
      skipped: [
        { ...skip, reason: skip!.reason.replace(/^cannot re-execute/, 'cannot read the cassette of'), reexecutions: 0 },
      ],
    });
    expect(JSON.stringify(stored.rows)).toBe(JSON.stringify(made.rows));
    expect(Object.keys(stored)).toEqual(Object.keys(made));
    expect(made.total).toBeGreaterThan(40);
  });

  it('finds the same re-executions without being told the runs: every recording that has some, oldest first', async () => {
    const stored = await storedDivergenceReport(engine, { at: AT });
    expect(stored).toEqual({ ...made, runs: study.length - 1, skipped: [] });
  });

  it('writes nothing: every run record is as it was', async () => {
    await storedDivergenceReport(engine, { at: AT });
    await storedDivergenceReports(engine);
    expect(await storeContents(engine)).toBe(before);
  });

  it('keeps to one build when asked, and to the runs of a build other than their own only when asked', async () => {
    const timestamped = await storedDivergenceReport(engine, { at: AT, build: 'timestamped' });
    const recorded = new Set(study.filter((run) => run.release === 'timestamped').map((run) => run.runId));
    const entries = timestamped.rows.flatMap((row) => row.entries);
    expect(timestamped).toMatchObject({ build: 'timestamped', runs: recorded.size, total: recorded.size * REPEATS });
    expect(new Set(entries.map((entry) => entry.recordedRunId))).toEqual(recorded);
    expect(made.rows.flatMap((row) => row.entries).filter((entry) => recorded.has(entry.recordedRunId))).toEqual(
      expect.arrayContaining(entries),
    );
    const patched = await storedDivergenceReport(engine, { at: AT, build: 'patched' });
    expect(patched).toMatchObject({ runs: 0, total: 0, repeats: 0, skipped: [], rows: emptyRows });
  });

  it('lists the reports a page can link to: the date with each run’s own build, and each build by name', async () => {
    const refs = await storedDivergenceReports(engine);
    const own = refs.find((ref) => ref.build === null);
    expect(refs.map((ref) => ref.at)).toEqual([AT, AT, AT]);
    expect(own).toEqual({ at: AT, build: null, reexecutions: made.total });
    expect(refs.filter((ref) => ref.build !== null).map((ref) => ref.build)).toEqual(['baseline', 'timestamped']);
    expect(refs.filter((ref) => ref.build !== null).reduce((sum, ref) => sum + ref.reexecutions, 0)).toBe(made.total);
  });

  it('is an empty report for a date nothing was re-executed against', async () => {
    expect(await storedDivergenceReport(engine, { at: '2026-03-10' })).toEqual({
      mode: 'reexecution',
      worldAt: '2026-03-10',
      repeats: 0,
      runs: 0,
      skipped: [],
      total: 0,
      rows: emptyRows,
      build: null,
    });
  });
});

describe('storedDivergenceReport on a store without those re-executions, and on bad queries', () => {
  it('is an empty report over a store with none, and says what to run for a named run with none', async () => {
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    expect(await storedDivergenceReport(engine, { at: AT })).toMatchObject({ runs: 0, total: 0, skipped: [] });
    const recorded = await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      input: { claimId: 'CLM-91077' },
    });
    const before = await storeContents(engine);
    const report = await storedDivergenceReport(engine, { at: AT, runIds: [recorded.runId] });
    expect(report).toMatchObject({ runs: 1, total: 0, repeats: 0, rows: emptyRows });
    expect(report.skipped).toEqual([
      {
        runId: recorded.runId,
        code: 'RUN_NOT_FOUND',
        reason: `no finished re-execution of run ${recorded.runId} against the world of ${AT} is stored; make them with \`divergenceReport(engine, { runIds: ["${recorded.runId}"], plan })\`, its plan's worlds of ${AT}`,
        reexecutions: 0,
      },
    ]);
    expect(await storeContents(engine)).toBe(before);
  });

  it('refuses an unknown run, a malformed one, one named twice and a date that is not one', async () => {
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    await expect(storedDivergenceReport(engine, { at: AT, runIds: ['0badc0de'] })).rejects.toMatchObject({
      code: 'RUN_NOT_FOUND',
      message: expect.stringContaining('no run 0badc0de'),
    });
    await expect(storedDivergenceReport(engine, { at: AT, runIds: ['<script>'] })).rejects.toMatchObject({
      code: 'USAGE',
    });
    await expect(storedDivergenceReport(engine, { at: AT, runIds: ['0badc0de', '0badc0de'] })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining('named twice'),
    });
    await expect(storedDivergenceReport(engine, { at: '2026-02-30' })).rejects.toMatchObject({ code: 'USAGE' });
  });
});

describe('storedDivergenceReport and the side-effect firewall', () => {
  it('tells a blocked re-execution from a simulated one as the workflow did, from the steps it stored', async () => {
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    // Re-executed against its own day with its own seed, it follows its recording up to the side effect.
    const recorded = await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04', 5),
      input: { claimId: 'CLM-91002' },
    });
    const once = {
      runIds: [recorded.runId],
      plan: () => ({ agent: build('baseline'), world: () => worldAt('2026-03-04', 5) }),
    };
    const blocked = await divergenceReport(engine, once);
    const simulated = await divergenceReport(engine, { ...once, sideEffects: 'simulate' });
    const entryOf = (report: typeof blocked, source: string) =>
      report.rows.find((row) => row.source === source)!.entries;
    expect(entryOf(blocked, 'blocked')).toHaveLength(1);
    expect(entryOf(simulated, 'simulated')).toHaveLength(1);

    const stored = await storedDivergenceReport(engine, { at: '2026-03-04' });
    expect(stored).toMatchObject({ runs: 1, repeats: 2, total: 2 });
    expect(entryOf(stored, 'blocked')[0]).toMatchObject({ source: 'blocked', step: 6 });
    expect(entryOf(stored, 'blocked')).toEqual(entryOf(blocked, 'blocked'));
    expect(entryOf(stored, 'simulated')).toEqual(
      entryOf(simulated, 'simulated').map((entry) => ({ ...entry, repeat: 2 })),
    );
  });

  it('skips a recording whose full tier expired since, with its re-executions counted', async () => {
    let now = Date.parse('2026-03-04T09:00:00.000Z');
    const store = sqliteStore({ path: ':memory:' });
    const engine = createEngine({ store, clock: () => new Date(now) });
    const recorded = await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      input: { claimId: 'CLM-91077' },
    });
    await divergenceReport(engine, { runIds: [recorded.runId], repeats: 2, plan });
    now += 4 * 24 * 3600 * 1000;
    const stored = await storedDivergenceReport(engine, { at: AT });
    expect(stored).toMatchObject({ runs: 1, repeats: 2, total: 0, rows: emptyRows });
    expect(stored.skipped).toEqual([
      {
        runId: recorded.runId,
        code: 'CASSETTE_EXPIRED',
        reason: expect.stringMatching(new RegExp(`^cannot read the cassette of run ${recorded.runId}: .*expired`)),
        reexecutions: 2,
      },
    ]);
  });
});
