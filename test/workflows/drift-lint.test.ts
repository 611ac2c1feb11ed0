import { probeDrift } from '../../src/workflows/index.js';
import { describe, expect, it } from 'vitest';
import type { World } from '../../src/world/index.js';
import { createEngine } from '../../src/engine/index.js';
import { defineAgent } from '../../src/agent/index.js';
import { differingSpans } from '../../src/analysis/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { lintFirstRequest } from '../../src/workflows/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { build, scenario, withIncident } from '../support/incident.js';

/** The claims world of a day, counting tool calls and refusing any model call. */
function countingWorld(at: string): { world: World; calls: string[] } {
  const inner = scenario.openWorld({ at, seed: 1, latencyMs: 0 });
  const calls: string[] = [];
  const tools = Object.fromEntries(
    Object.entries(inner.tools).map(([name, handler]) => [
      name,
      (input: Parameters<typeof handler>[0]) => (calls.push(name), handler(input)),
    ]),
  );
  return {
    world: {
      model: { respond: () => Promise.reject(new Error('the drift probe asked the model')) },
      tools,
      worldAt: at,
    },
    calls,
  };
}

describe('the drift probe', () => {
  it('reports the step-4 OCR change on 2026-03-09 and nothing else, never calling a tool that writes', async () => {
    const { engine, incident } = await withIncident();
    const { world, calls } = countingWorld('2026-03-09');
    const report = await probeDrift(engine, {
      runId: incident.runId,
      tools: build('baseline').tools,
      world,
    });
    expect(report).toMatchObject({
      mode: 'drift',
      runId: '9b40c1d5',
      recordedWorldAt: '2026-03-04',
      worldAt: '2026-03-09',
      changed: 1,
      unchanged: 2,
      skipped: 1,
    });
    expect(report.steps.map((step) => `${step.kind}#${step.index}:${step.status}`)).toEqual([
      'fetch_claim#0:unchanged',
      'ocr_document#0:changed',
      'estimate_repair#0:skipped',
      'fetch_policy#0:unchanged',
    ]);
    const ocr = report.steps[1]!;
    expect(ocr.status === 'changed' && ocr.changes).toEqual(
      expect.arrayContaining([
        { path: 'fields.damage_area_cm2.value', before: '205', after: '2050' },
        { path: 'fields.damage_area_cm2.confidence', before: '0.38', after: '0.97' },
        { path: 'ocr_model', before: '"v1"', after: '"v2"' },
      ]),
    );
    expect(calls).toEqual(['fetch_claim', 'ocr_document', 'fetch_policy']);
    expect(await engine.listRuns()).toHaveLength(1);
  });

  it('finds no change against the world the run was recorded in', async () => {
    const { engine, incident } = await withIncident();
    const report = await probeDrift(engine, {
      runId: incident.runId,
      tools: build('baseline').tools,
      world: countingWorld('2026-03-04').world,
    });
    expect(report.changed).toBe(0);
  });

  it("skips a fork's override, which is no answer of the world", async () => {
    const { engine, incident } = await withIncident();
    const fork = await engine.fork({
      parentRunId: incident.runId,
      atStep: 4,
      override: { kind: 'tool-merge', patch: { fields: { damage_area_cm2: { value: 2050, confidence: 0.97 } } } },
      agent: build('baseline'),
      world: scenario.openWorld({ at: '2026-03-04', seed: 1, latencyMs: 0 }),
    });
    const report = await probeDrift(engine, {
      runId: fork.runId,
      tools: build('baseline').tools,
      world: countingWorld('2026-03-09').world,
    });
    expect(report.steps.find((step) => step.step === 4)).toMatchObject({
      status: 'skipped',
      reason: "a fork's override, not an answer of the world",
    });
  });

  it('refuses a run whose full tier has expired', async () => {
    let now = new Date('2026-03-04T09:00:00Z');
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }), clock: () => now });
    const run = await engine.record({
      agent: build('baseline'),
      world: scenario.openWorld({ at: '2026-03-04', seed: 1, latencyMs: 0 }),
      input: { claimId: 'CLM-91077' },
    });
    now = new Date('2026-03-08T09:00:00Z');
    const error = await probeDrift(engine, {
      runId: run.runId,
      tools: build('baseline').tools,
      world: countingWorld('2026-03-09').world,
    }).catch((caught: unknown) => caught);
    expect(isForkpointError(error, 'CASSETTE_EXPIRED')).toBe(true);
  });
});

describe('the volatile-prompt lint', () => {
  it('flags the timestamp in the system prompt of timestamped, and passes baseline', () => {
    const flagged = lintFirstRequest(build('timestamped'), { claimId: 'CLM-91077' });
    expect(flagged.flagged).toBe(true);
    expect(flagged.findings).toEqual([
      expect.objectContaining({
        path: 'system',
        before: '2026-03-04T09:00:00.000Z',
        after: '2026-03-05T17:31:07.123Z',
        looksLike: 'ISO 8601 timestamp',
      }),
    ]);
    expect(flagged.stablePrefixBytes).toBeLessThan(flagged.requestBytes);
    const clean = lintFirstRequest(build('baseline'), { claimId: 'CLM-91077' });
    expect(clean).toMatchObject({ flagged: false, findings: [] });
    expect(clean.stablePrefixBytes).toBe(clean.requestBytes);
  });

  it('flags randomness the build puts in its first message or prompt', () => {
    const random = defineAgent({
      ...build('baseline'),
      build: 'request-id',
      systemPrompt: ({ random: draw }) => `Triage claims. Request ${Math.floor(draw() * 1e9)}.`,
    });
    const report = lintFirstRequest(random, { claimId: 'CLM-91077' });
    expect(report.findings.map((finding) => finding.path)).toEqual(['system']);
    expect(report.stablePrefixBytes).toBeGreaterThan(0);
  });

  it('diffs strings into every separate span that differs', () => {
    expect(differingSpans('same', 'same')).toEqual([]);
    const spans = differingSpans('at 09:00 on day 4, id abc', 'at 17:31 on day 5, id abc');
    expect(spans.map((span) => [span.before, span.after])).toEqual([
      ['09', '17'],
      ['00', '31'],
      ['4', '5'],
    ]);
    expect(spans[2]).toMatchObject({ start: 16, end: 17, otherStart: 16, otherEnd: 17 });
  });
});
