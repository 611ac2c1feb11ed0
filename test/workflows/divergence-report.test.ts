import { beforeAll, describe, expect, it } from 'vitest';
import type { DivergenceReport, ReportedReexecution } from '../../src/workflows/index.js';
import type { Engine } from '../../src/engine/index.js';
import { DIVERGENCE_SOURCES } from '../../src/analysis/index.js';
import { buildOf } from '../../src/scenario/index.js';
import { divergenceReport, storedDivergenceReport } from '../../src/workflows/index.js';
import claims, { supervised } from '../../scenarios/claims-triage/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { formatDivergenceReport } from '../../src/cli/output/format-divergence-report.js';
import { styleFor } from '../../src/text/index.js';
import type { StudyRun } from '../../studies/divergence/record-study.js';
import { recordDivergenceStudy } from '../../studies/divergence/record-study.js';
import { build, scenario, worldAt, worldsAt } from '../support/incident.js';
import { deterministicEngine } from '../support/deterministic-engine.js';

const AT = '2026-03-09';
const REPEATS = 2;

// Seeds that repeat on every run of the suite, as the engine's randomness does.
let seedDraws = 0;
const plan = (run: { agent: { build: string } }) => ({
  agent: build(run.agent.build),
  world: worldsAt(AT, () => (seedDraws++ * 0.6180339887) % 1),
  scenario: 'scenarios/claims-triage',
});

describe('divergenceReport over the recorded divergence study', () => {
  let engine: Engine;
  let study: StudyRun[];
  let report: DivergenceReport;
  const entriesOf = (runs: readonly StudyRun[]): ReportedReexecution[] => {
    const ids = new Set(runs.map((run) => run.runId));
    return report.rows.flatMap((row) => row.entries).filter((entry) => ids.has(entry.recordedRunId));
  };

  beforeAll(async () => {
    engine = deterministicEngine();
    study = await recordDivergenceStudy(engine);
    // The study's world is made up: its re-executions may register estimates, by name.
    report = await divergenceReport(engine, {
      runIds: study.map((run) => run.runId),
      repeats: REPEATS,
      plan,
      sideEffects: { tools: { estimate_repair: 'live' } },
    });
  });

  it('records at least 24 runs on 2026-03-04, with every kind of release', async () => {
    expect(study.length).toBeGreaterThanOrEqual(24);
    expect(new Set(study.map((run) => run.release))).toEqual(new Set(['baseline', 'timestamped', 'older-baseline']));
    for (const run of study)
      expect(await engine.getRunSummary(run.runId)).toMatchObject({ mode: 'record', worldAt: '2026-03-04' });
  });

  it('finds every source, and the counts add up to runs × K minus the skipped', () => {
    expect(report.mode).toBe('reexecution');
    expect(report.rows.map((row) => row.source)).toEqual(DIVERGENCE_SOURCES);
    for (const row of report.rows) {
      // Nothing is simulated or blocked when the one side effect may go live, and no build of the study asks a person.
      if (['simulated', 'blocked', 'approval', 'awaiting-approval'].includes(row.source))
        expect(row.count, row.source).toBe(0);
      else expect(row.count, row.source).toBeGreaterThan(0);
      expect(row.entries).toHaveLength(row.count);
      expect(row.share).toBeCloseTo(row.count / report.total, 10);
    }
    const skipped = report.skipped.reduce((sum, run) => sum + run.reexecutions, 0);
    expect(report.rows.reduce((sum, row) => sum + row.count, 0)).toBe(report.total);
    expect(report.total).toBe(study.length * REPEATS - skipped);
  });

  it('skips the run kept only in its structural tier, with the reason', () => {
    const structural = study.filter((run) => run.structuralOnly === true);
    expect(structural).toHaveLength(1);
    expect(report.skipped).toEqual([
      {
        runId: structural[0]!.runId,
        code: 'CASSETTE_EXPIRED',
        reason: expect.stringMatching(/cannot re-execute run .*structural tier/),
        reexecutions: REPEATS,
      },
    ]);
  });

  it('stores every re-execution with mode reexecution, each with its own seed', async () => {
    const entries = report.rows.flatMap((row) => row.entries);
    for (const entry of entries)
      expect(await engine.getRunSummary(entry.runId)).toMatchObject({
        mode: 'reexecution',
        sourceRunId: entry.recordedRunId,
        worldAt: AT,
      });
    expect(new Set(entries.map((entry) => entry.seed)).size).toBe(entries.length);
  });

  it('finds the incident (CLM-91077 recorded on 03-04) leaving at step 4 on ocr_document#0: the tool answered differently', async () => {
    // The incident is the study's first recording of CLM-91077 with baseline; the second, with another seed, is a run of its own.
    const incident = study.find((run) => run.claimId === 'CLM-91077' && run.release === 'baseline')!;
    expect(await engine.getRun(incident.runId)).toMatchObject({
      status: 'failed',
      error: { code: 'VALIDATION_FAILED', step: 9 },
    });
    const entries = entriesOf([incident]);
    expect(entries).toHaveLength(REPEATS);
    for (const entry of entries) {
      expect(entry).toMatchObject({ source: 'tool-response', step: 4, call: 'ocr_document#0', on: 'response' });
      expect(entry.diff).toContainEqual({ path: 'output.fields.damage_area_cm2.value', before: '205', after: '2050' });
    }
  });

  it('finds the timestamped runs leaving at step 1 on a volatile request: the time in the system prompt', () => {
    const entries = entriesOf(study.filter((run) => run.release === 'timestamped'));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        source: 'volatile-request',
        step: 1,
        call: 'model#0',
        on: 'request',
        reason: expect.stringContaining('ISO 8601 timestamp'),
      });
      expect(entry.diff.map((change) => change.path)).toEqual(['system']);
    }
  });

  it('finds the older release leaving at step 1 because the code changed', () => {
    const entries = entriesOf(study.filter((run) => run.release === 'older-baseline'));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(entry).toMatchObject({ source: 'code', step: 1, call: 'model#0', on: 'request' });
      expect(entry.recordedBuild.build).toBe(entry.build.build);
      expect(entry.recordedBuild.codeHash).not.toBe(entry.build.codeHash);
      expect(entry.diff.map((change) => change.path)).toEqual(['system']);
    }
  });

  it('finds only runs of a world that did not move following their recording to the end', () => {
    const none = report.rows.find((row) => row.source === 'none')!;
    for (const entry of none.entries) expect(entry.input).toEqual({ claimId: 'CLM-91069' });
  });
});

describe('divergenceReport behind the side-effect firewall', () => {
  // Recorded with baseline on 03-04 and re-executed against 03-04 with the recording's own seed: the
  // world has not moved and the model samples the same, so the re-execution follows its recording up to
  // the registration of the estimate, a side effect.
  const followed = async () => {
    const engine = deterministicEngine();
    const recorded = await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04', 5),
      input: { claimId: 'CLM-91002' },
      scenario: 'scenarios/claims-triage',
    });
    const samePlan = () => ({ agent: build('baseline'), world: () => worldAt('2026-03-04', 5) });
    return { engine, runIds: [recorded.runId], plan: samePlan };
  };
  const sourceOf = (report: DivergenceReport) =>
    report.rows.flatMap((row) => row.entries).map((entry) => [entry.source, entry.step]);

  it('counts a re-execution the firewall stopped while still on its recording as blocked, never as a divergence of the world', async () => {
    const { engine, ...options } = await followed();
    const report = await divergenceReport(engine, options);
    expect(sourceOf(report)).toEqual([['blocked', 6]]);
    expect(report.rows.find((row) => row.source === 'blocked')!.entries[0]!.reason).toMatch(
      /firewall stopped it at step 6/,
    );
  });

  it("counts a simulator's answer where the world's was recorded as simulated, and a live side effect as the world", async () => {
    const { engine, ...options } = await followed();
    expect(sourceOf(await divergenceReport(engine, { ...options, sideEffects: 'simulate' }))).toEqual([
      ['simulated', 6],
    ]);
    expect(sourceOf(await divergenceReport(engine, { ...options, sideEffects: 'live' }))).toEqual([['none', null]]);
  });
});

describe('divergenceReport over a run a person approved', () => {
  // CLM-91077 with supervised on 03-09: the payout of 1903 waits for a reviewer at step 10. Re-executed
  // against the same day and seed with payments live, the re-execution follows its recording up to that
  // question, and nobody is there to answer it.
  const DAY = '2026-03-09';
  const world = () => claims.openWorld({ at: DAY, seed: 20260309, latencyMs: 0 });
  const approvedRecording = async () => {
    let now = Date.parse('2026-03-09T09:00:00.000Z');
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }), clock: () => new Date((now += 1000)) });
    const input = { claimId: 'CLM-91077' };
    const recorded = await engine.record({ agent: supervised, world: world(), input, runId: 'a0091077' });
    await engine.approve({ runId: recorded.runId, agent: supervised, world: world(), by: 'dana@claims.example' });
    return {
      engine,
      runIds: [recorded.runId],
      plan: () => ({ agent: supervised, world }),
      sideEffects: 'live' as const,
    };
  };
  const entriesOf = (report: { rows: readonly { entries: readonly ReportedReexecution[] }[] }) =>
    report.rows.flatMap((row) => row.entries);

  it('counts a re-execution waiting for the answer while still on its recording as awaiting-approval, not as a changed request', async () => {
    const { engine, ...options } = await approvedRecording();
    const report = await divergenceReport(engine, options);
    const [entry, ...more] = entriesOf(report);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      source: 'awaiting-approval',
      step: 10,
      call: 'approval#0',
      on: null,
      status: 'awaiting-approval',
      diff: [],
    });
    expect(entry!.reason).toMatch(/waits at step 10 for a person's approval/);
    // The CLI says why it stopped where a divergence would name its call and first change.
    const text = formatDivergenceReport(report, DAY, undefined, styleFor({ isTTY: false }, {}));
    expect(text).toMatch(/^ {2}awaiting-approval +1 +100\.0% +waiting for a person's approval/m);
    expect(text).toContain(`a0091077 claimId=CLM-91077 #1 -> ${entry!.runId}  ${entry!.reason}`);
  });

  it("counts a reviewer who answered the re-execution otherwise as approval, with both sides' words", async () => {
    const { engine, ...options } = await approvedRecording();
    const [waiting] = entriesOf(await divergenceReport(engine, options));
    await engine.approve({
      runId: waiting!.runId,
      agent: supervised,
      world: world(),
      approved: false,
      by: 'sam@claims.example',
      note: 'Call the holder first.',
    });
    const stored = await storedDivergenceReport(engine, { at: DAY, runIds: options.runIds });
    const [entry, ...more] = entriesOf(stored);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ source: 'approval', step: 10, call: 'approval#0', on: 'response' });
    expect(entry!.reason).toBe(
      'the same call put to a person: approved in the recording, rejected in the re-execution',
    );
    expect(entry!.diff.map((change) => change.path)).toEqual(expect.arrayContaining(['output.approved', 'output.by']));
  });
});

describe('divergenceReport on bad input', () => {
  it("writes nothing for an unknown run, a world's bad date, repeats below 1, or a build that cannot be planned", async () => {
    const engine = deterministicEngine();
    const recorded = await engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04', 1),
      input: { claimId: 'CLM-91069' },
    });
    const attempts: Array<[Partial<Parameters<typeof divergenceReport>[1]>, string]> = [
      [{ runIds: [recorded.runId, 'deadbeef'] }, 'RUN_NOT_FOUND'],
      [{ plan: () => ({ agent: build('baseline'), world: () => worldAt('2026-02-30') }) }, 'USAGE'],
      [{ repeats: 0 }, 'USAGE'],
      [{ runIds: [recorded.runId, recorded.runId] }, 'USAGE'],
      [{ plan: () => ({ agent: buildOf(scenario, 'no-such-build'), world: () => worldAt(AT) }) }, 'BUILD_NOT_FOUND'],
    ];
    for (const [override, code] of attempts) {
      const attempt = divergenceReport(engine, { runIds: [recorded.runId], plan, ...override });
      await expect(attempt).rejects.toMatchObject({ name: 'ForkpointError', code });
    }
    expect(await engine.listRuns()).toHaveLength(1);
  });
});
