// Builds the bench-ui database: `runs` runs spread over 30 days, of every mode, status, build and scenario in
// shares a real store might hold (some rare, to make a filter selective), written through the store's
// `importRun`, one template recording copied with new ids and fields; then one long run recorded through the
// engine as the newest. By default the copies are records without their step rows (a page of runs reads
// none, and writing 100k runs of rows costs a minute); `withSteps` gives each its template's 9 rows.
import { createEngine } from '../../dist/src/engine/index.js';
import { memoryStore, sqliteStore } from '../../dist/src/store/index.js';
import { readRunContent } from '../../dist/src/store/copy/run-content.js';
import { INPUT, syntheticAgent, syntheticAgentCapped, syntheticWorld, toolCallsFor } from './synthetic-agent.mjs';

/** The first run's creation time; the runs are spread evenly over SPAN_MS from it. */
export const T0 = Date.parse('2026-02-01T00:00:00.000Z');
export const SPAN_MS = 30 * 24 * 3600 * 1000;
/** The clock of the reads: just after the last run. */
export const MEASURED_AT = new Date(T0 + SPAN_MS + 60_000);

/** The scenarios, most runs of the built-in one; `rare` holds about one run in a thousand. */
export const SCENARIOS = {
  triage: 'scenarios/claims-triage',
  refunds: '/home/ci/agents/refunds',
  rare: '/home/ci/agents/escalations',
};
/** A build about one run in a thousand is of. */
export const RARE_BUILD = 'experiment-7';

// A small deterministic generator (mulberry32): the same database for the same size, every time.
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

// A value drawn from [value, share] pairs whose shares add up to 1.
function pick(random, table) {
  let draw = random();
  for (const [value, share] of table) {
    draw -= share;
    if (draw < 0) return value;
  }
  return table[table.length - 1][0];
}

const MODES = [
  ['record', 0.55],
  ['replay:strict', 0.25],
  ['replay:fidelity', 0.05],
  ['reexecution', 0.1],
  ['fork', 0.05],
];
const BUILDS = [
  ['baseline', 0.6],
  ['patched', 0.3],
  ['timestamped', 0.099],
  [RARE_BUILD, 0.001],
];
const SCENARIO_SHARES = [
  [SCENARIOS.triage, 0.95],
  [SCENARIOS.refunds, 0.049],
  [SCENARIOS.rare, 0.001],
];

/** The run id of the n-th copy (0-based, oldest first). */
export const runIdOf = (n) => n.toString(16).padStart(12, '0');

/**
 * Writes the database at `path`: `runs` copies, then a recording of `longSteps` steps (odd) with tool
 * results of `resultBytes`. Returns the long run's id. `onProgress(done)` is told every 10,000 copies.
 */
export async function buildUiDatabase(path, { runs, withSteps, longSteps, resultBytes }, onProgress) {
  const template = await templateRun();
  const random = generator(19);
  const store = sqliteStore({ path });
  try {
    const records = [];
    for (let n = 0; n < runs; n++) {
      const createdMs = T0 + Math.floor((n * SPAN_MS) / runs);
      const mode = pick(random, MODES);
      const replay = mode.startsWith('replay');
      // A few runs were left running by an owner long gone: readers see them interrupted.
      const status =
        random() < 0.002
          ? 'running'
          : pick(
              random,
              replay
                ? [
                    ['completed', 0.8],
                    ['diverged', 0.1],
                    ['failed', 0.1],
                  ]
                : [
                    ['completed', 0.85],
                    ['failed', 0.15],
                  ],
            );
      // Forks and replays come from an earlier record, when there is one.
      const source = records.length === 0 ? null : records[Math.floor(random() * records.length)];
      const runId = runIdOf(n);
      const run = {
        ...template.run,
        runId,
        mode,
        build: pick(random, BUILDS),
        scenario: pick(random, SCENARIO_SHARES),
        createdAt: new Date(createdMs).toISOString(),
        finishedAt: status === 'running' ? null : new Date(createdMs + 1500).toISOString(),
        expiresAt: new Date(createdMs + 72 * 3600 * 1000).toISOString(),
        structuralExpiresAt: new Date(createdMs + 90 * 24 * 3600 * 1000).toISOString(),
        status,
        outcome: status === 'completed' ? template.run.outcome : null,
        error:
          status === 'failed' || status === 'diverged'
            ? { code: status === 'failed' ? 'VALIDATION_FAILED' : 'REPLAY_DIVERGED', message: 'bench', step: 9 }
            : null,
        owner: status === 'running' ? { pid: 1, host: 'gone-host', token: `token-${n}`, leaseExpiresAt: 1 } : null,
        parent:
          mode === 'fork' && source !== null
            ? { runId: source, atStep: 4, override: { output: 'changed' }, changes: null }
            : null,
        sourceRunId: (replay || mode === 'reexecution') && source !== null ? source : null,
      };
      const fork = run.parent !== null;
      const rows = !withSteps ? [] : fork ? template.rows.filter((row) => row.step >= 4) : template.rows;
      await store.importRun(run, rows, withSteps ? template.blobs : []);
      if (mode === 'record') records.push(runId);
      if ((n + 1) % 10_000 === 0) onProgress(n + 1);
    }
    // The long run, recorded as the newest.
    const engine = createEngine({ store, clock: () => new Date(T0 + SPAN_MS) });
    const long = await engine.record({
      agent: syntheticAgentCapped(longSteps + 1),
      world: syntheticWorld({ toolCalls: toolCallsFor(longSteps), resultBytes }),
      input: INPUT,
      scenario: SCENARIOS.triage,
    });
    if (long.status !== 'completed' || long.steps.length !== longSteps)
      throw new Error(`the long recording ended ${long.status} after ${long.steps.length} steps`);
    return long.runId;
  } finally {
    await store.close();
  }
}

// One 9-step recording of the synthetic agent (400-byte tool results), read back whole.
async function templateRun() {
  const store = memoryStore();
  const engine = createEngine({ store, clock: () => new Date(T0) });
  const run = await engine.record({
    agent: syntheticAgent,
    world: syntheticWorld({ toolCalls: 4, resultBytes: 400 }),
    input: INPUT,
    scenario: SCENARIOS.triage,
  });
  const content = await readRunContent(store, run.runId);
  await store.close();
  return content;
}
