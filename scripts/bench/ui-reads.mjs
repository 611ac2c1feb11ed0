// The reads the web view makes of a store, timed one by one through the engine: pages of runs (the first,
// a deep one, and one per filter) and a window of a long run's steps.
import { readStepViews } from '../../dist/src/engine/index.js';
import { RARE_BUILD, SCENARIOS, T0, runIdOf } from './ui-database.mjs';
import { median } from './timing.mjs';

/** The value at quantile `q` (0..1) of a list of numbers, by nearest rank. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Median and p95 milliseconds of `rounds` calls of `fn`, after `warmup`; and what the last call returned. */
export async function sampled(fn, { rounds, warmup }) {
  const times = [];
  let last;
  for (let round = 0; round < warmup + rounds; round++) {
    const started = performance.now();
    last = await fn();
    if (round >= warmup) times.push(performance.now() - started);
  }
  return { medianMs: median(times), p95Ms: quantile(times, 0.95), last };
}

const day = (n) => new Date(T0 + n * 24 * 3600 * 1000).toISOString();

/**
 * The pages measured: a name for the figures, what the page shows, and its query. The shares are those
 * ui-database.mjs draws the runs with.
 */
export function pageCases(runs) {
  return [
    ['first', 'the first page (50 runs, newest first)', {}],
    ['deep', `a page ${runs - 1000} runs deep (cursor)`, { before: runIdOf(999) }],
    ['mode_fork', 'mode fork (5% of runs)', { mode: 'fork' }],
    ['mode_strict', 'mode replay:strict (25%)', { mode: 'replay:strict' }],
    ['status_failed', 'status failed (about 14%)', { status: 'failed' }],
    ['status_interrupted', 'status interrupted (0.2%, a running run whose lease lapsed)', { status: 'interrupted' }],
    ['build_patched', 'build patched (30%)', { build: 'patched' }],
    ['build_rare', `build ${RARE_BUILD} (0.1%)`, { build: RARE_BUILD }],
    ['scenario_rare', `scenario ${SCENARIOS.rare} (0.1%)`, { scenario: SCENARIOS.rare }],
    ['scenario_none', 'a scenario no run has', { scenario: '/home/ci/agents/none' }],
    ['since', 'since the last day (1/30 of runs)', { since: day(29) }],
    ['until', 'until day 7: its newest runs are 23 days deep', { until: day(7) }],
    ['window', 'since day 10, until day 11', { since: day(10), until: day(11) }],
    [
      'fork_failed_patched',
      'mode fork, status failed, build patched (about 0.2%)',
      { mode: 'fork', status: 'failed', build: 'patched' },
    ],
    [
      'scenario_rare_build_patched',
      `scenario ${SCENARIOS.rare}, build patched (0.03%)`,
      { scenario: SCENARIOS.rare, build: 'patched' },
    ],
    [
      'refunds_until_deep',
      'scenario refunds (4.9%) until day 7, deep page (cursor)',
      { scenario: SCENARIOS.refunds, until: day(7), before: runIdOf(Math.floor(runs / 60)) },
    ],
  ].map(([name, label, query]) => ({ name, label, query }));
}

/** Times each page case through `engine.runPage`. */
export async function benchPages(engine, runs, options) {
  const results = [];
  for (const { name, label, query } of pageCases(runs)) {
    const timing = await sampled(() => engine.runPage(query), options);
    results.push({ name, label, ...timing, shown: timing.last.runs.length, more: timing.last.next !== null });
  }
  return results;
}

/**
 * Times reading the long run: its first window of `window` steps (readStepViews through its last step;
 * a window further in reads every step before it too), all of it as a run page reads it (`engine.getRun`),
 * and its summary alone.
 */
export async function benchLongRun(engine, runId, longSteps, window, options) {
  const store = engine.store;
  const known = await store.getRun(runId);
  const few = { ...options, rounds: Math.max(5, Math.floor(options.rounds / 3)) };
  const first = await sampled(() => readStepViews(store, runId, { known, through: window }), options);
  const whole = await sampled(() => engine.getRun(runId), few);
  const summary = await sampled(() => engine.getRunSummary(runId), options);
  if (first.last.length !== window || whole.last.steps.length !== longSteps)
    throw new Error(`read ${first.last.length} and ${whole.last.steps.length} steps of the long run`);
  return { first, whole, summary };
}
