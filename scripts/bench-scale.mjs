// The scale bench (`npm run bench:scale`, which builds first): builds databases of 10k and 100k runs
// (`--runs 10000` for one size) and measures, at each size, what issue 15 measured there:
//   - recording under the default capture policy (errors+sample:0.01) against keeping every run, in ms
//     per run, in alternating blocks on the same database (target: within 1.2x);
//   - gc of the expired quarter of the runs, with a recorder at work in another process: the longest
//     write transaction gc made (target < 100 ms; see bench/write-timer.mjs for how it is told apart
//     from the checkpoints a commit runs after it) and the recorder's failures (target 0);
//   - `forkpoint runs` as a spawned process: wall time and peak memory (target < 0.3 s and < 100 MiB).
// Progress goes to stderr; the last line of stdout is one JSON object of the figures. Nothing is asserted.
// Options: --runs N[,N...] (default 10000,100000), --compare N (runs per arm, default 1000), --keep DIR.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createEngine } from '../dist/src/engine/index.js';
import { parseCapturePolicy } from '../dist/src/retention/index.js';
import { sqliteStore } from '../dist/src/store/index.js';
import { buildDatabase, MEASURED_AT, scaleWorld } from './bench/scale-database.mjs';
import { installWriteTimer } from './bench/write-timer.mjs';
import { INPUT, syntheticAgent } from './bench/synthetic-agent.mjs';
import { median, msSince } from './bench/timing.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string' }, compare: { type: 'string' }, keep: { type: 'string' } },
});
const SIZES = (values.runs ?? '10000,100000').split(',').map(Number);
const COMPARE_RUNS = Number(values.compare ?? 1000);
const BLOCK = 25;
const RUNS_ROUNDS = 7;
const note = (text) => process.stderr.write(`bench-scale: ${text}\n`);

const work = values.keep ?? mkdtempSync(join(tmpdir(), 'forkpoint-bench-scale-'));
mkdirSync(work, { recursive: true });
const figures = {};
try {
  for (const size of SIZES) {
    const path = join(work, `scale-${size}.db`);
    rmSync(path, { force: true });
    const started = process.hrtime.bigint();
    note(`building ${size} runs in ${path}`);
    await buildDatabase(path, size, (done) => note(`  ${done}/${size} (${(msSince(started) / 1000).toFixed(0)} s)`));
    const buildS = msSince(started) / 1000;
    note(`built in ${buildS.toFixed(1)} s, ${(statSync(path).size / 2 ** 20).toFixed(0)} MiB`);

    const recording = await compareRecording(path);
    note(
      `recording: ${recording.allMsPerRun.toFixed(3)} ms/run keeping all, ${recording.defaultMsPerRun.toFixed(3)} under the default policy`,
    );
    const gc = await gcBesideRecorder(path);
    note(
      `gc: ${gc.purged} runs purged in ${gc.purgeTransactions} transactions, longest write ${gc.longestWriteMs.toFixed(1)} ms; recorder ${gc.recorder.runs} runs, ${gc.recorder.failures} failures`,
    );
    const runs = runsCommand(path);
    note(`runs: ${runs.wallS.toFixed(3)} s, ${runs.maxRssMiB.toFixed(0)} MiB`);

    const prefix = `${size / 1000}k`;
    Object.assign(figures, {
      [`build_s_${prefix}`]: round(buildS, 1),
      [`record_all_ms_per_run_${prefix}`]: round(recording.allMsPerRun, 3),
      [`record_default_ms_per_run_${prefix}`]: round(recording.defaultMsPerRun, 3),
      [`record_default_over_all_${prefix}`]: round(recording.ratio, 3),
      [`gc_purged_runs_${prefix}`]: gc.purged,
      [`gc_purge_transactions_${prefix}`]: gc.purgeTransactions,
      [`gc_longest_purge_ms_${prefix}`]: round(gc.longestPurgeMs, 1),
      [`gc_median_purge_ms_${prefix}`]: round(gc.medianPurgeMs, 1),
      [`gc_ms_per_purged_run_${prefix}`]: round((gc.totalS * 1000) / Math.max(1, gc.purged), 3),
      [`gc_write_transactions_${prefix}`]: gc.writeTransactions,
      [`gc_longest_write_ms_${prefix}`]: round(gc.longestWriteMs, 1),
      [`gc_longest_wait_ms_${prefix}`]: round(gc.longestWaitMs, 1),
      [`gc_total_s_${prefix}`]: round(gc.totalS, 2),
      [`gc_recorder_runs_${prefix}`]: gc.recorder.runs,
      [`gc_recorder_failures_${prefix}`]: gc.recorder.failures,
      [`gc_recorder_longest_wait_ms_${prefix}`]: round(gc.recorder.longestWaitMs, 1),
      [`gc_recorder_longest_hold_ms_${prefix}`]: round(gc.recorder.longestHoldMs, 1),
      [`runs_wall_s_${prefix}`]: round(runs.wallS, 3),
      [`runs_max_rss_mib_${prefix}`]: round(runs.maxRssMiB, 1),
    });
    printTable(size, figures, prefix, gc.recorder.firstFailure);
    if (values.keep === undefined) rmSync(path, { force: true });
  }
} finally {
  if (values.keep === undefined) rmSync(work, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(figures)}\n`);

/**
 * Records COMPARE_RUNS runs keeping every one and as many under the default policy, in alternating
 * blocks of BLOCK runs on the same database, after a warm-up of both; the figure of each arm is the
 * median of its blocks, and the ratio the median of the ratios of neighbouring blocks.
 */
async function compareRecording(path) {
  const store = sqliteStore({ path });
  let tick = 0;
  // Each run a millisecond after the last, all at the end of the span: none of them is expired at gc.
  const engine = createEngine({ store, clock: () => new Date(MEASURED_AT.getTime() + tick++) });
  const policies = { all: parseCapturePolicy('all'), default: parseCapturePolicy('errors+sample:0.01') };
  const block = async (policy) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < BLOCK; i++)
      await engine.record({ agent: syntheticAgent, world: scaleWorld(), input: INPUT, capture: policy });
    return msSince(started) / BLOCK;
  };
  try {
    for (let i = 0; i < 4; i++) await block(i % 2 === 0 ? policies.all : policies.default);
    const all = [];
    const drop = [];
    const ratios = [];
    for (let i = 0; i < COMPARE_RUNS / BLOCK; i++) {
      all.push(await block(policies.all));
      drop.push(await block(policies.default));
      ratios.push(drop[i] / all[i]);
    }
    return { allMsPerRun: median(all), defaultMsPerRun: median(drop), ratio: median(ratios) };
  } finally {
    await store.close();
  }
}

/**
 * Starts a recorder in another process, waits for its first run, runs gc at the end of the span (the
 * first quarter of the runs has expired) through a store whose writes are timed, then stops the
 * recorder and reads its report.
 */
async function gcBesideRecorder(path) {
  const recorder = spawn(process.execPath, ['scripts/bench/scale-recorder.mjs', '--db', path], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: recorder.stdout })[Symbol.asyncIterator]();
  const ready = await lines.next();
  if (ready.value !== 'ready') throw new Error(`the recorder did not start: ${ready.value}`);

  // gc's holds of the write lock, timed from its statements (see bench/write-timer.mjs).
  const timer = installWriteTimer({ noAutocheckpoint: true });
  const store = sqliteStore({ path });
  const purgeHolds = [];
  const purgeRuns = (batch) => {
    const before = timer.holds.length;
    try {
      return store.purgeRuns(batch);
    } finally {
      purgeHolds.push(...timer.holds.slice(before));
    }
  };
  const engine = createEngine({ store: { ...store, purgeRuns }, clock: () => MEASURED_AT });
  const started = process.hrtime.bigint();
  let report;
  timer.recording = true;
  try {
    report = await engine.gc();
  } finally {
    timer.recording = false;
    await store.close();
    timer.uninstall();
  }
  const totalS = msSince(started) / 1000;

  recorder.stdin.end('stop\n');
  const result = JSON.parse((await lines.next()).value);
  await new Promise((resolve) => recorder.once('exit', resolve));
  const longest = (list) => (list.length === 0 ? 0 : Math.max(...list));
  return {
    purged: report.purged.length,
    purgeTransactions: purgeHolds.length,
    longestPurgeMs: longest(purgeHolds),
    medianPurgeMs: purgeHolds.length === 0 ? 0 : median(purgeHolds),
    writeTransactions: timer.holds.length,
    longestWriteMs: longest(timer.holds),
    longestWaitMs: longest(timer.waits),
    totalS,
    recorder: result,
  };
}

/** `forkpoint runs` as a user runs it: RUNS_ROUNDS spawns, median wall time, largest peak memory. */
function runsCommand(path) {
  const walls = [];
  let maxRssKiB = 0;
  for (let i = 0; i < RUNS_ROUNDS; i++) {
    const started = process.hrtime.bigint();
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        './scripts/bench/report-rss.mjs',
        'bin/forkpoint.js',
        'runs',
        '--db',
        path,
        ...(i % 2 === 1 ? ['--json'] : []),
      ],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 2 ** 20,
      },
    );
    walls.push(msSince(started) / 1000);
    if (child.status !== 0) throw new Error(`forkpoint runs exited ${child.status}: ${child.stderr}`);
    maxRssKiB = Math.max(maxRssKiB, Number(/bench-max-rss-kib=(\d+)/.exec(child.stderr)?.[1] ?? 0));
  }
  return { wallS: median(walls), maxRssMiB: maxRssKiB / 1024 };
}

function printTable(size, figures, prefix, firstFailure) {
  const get = (name) => figures[`${name}_${prefix}`];
  const row = (label, value, target = '', met = null) =>
    process.stdout.write(
      `${label.padEnd(72)} ${String(value).padEnd(22)} ${target.padEnd(14)} ${met === null ? '' : met ? 'met' : 'MISSED'}\n`,
    );
  process.stdout.write(`-- ${size} runs (built in ${get('build_s')} s)\n`);
  row('record, keeping all (ms/run)', get('record_all_ms_per_run'));
  row('record, errors+sample:0.01 (ms/run)', get('record_default_ms_per_run'));
  row('  default over all', get('record_default_over_all'), '<= 1.2', get('record_default_over_all') <= 1.2);
  row('gc: runs purged / write transactions', `${get('gc_purged_runs')} / ${get('gc_purge_transactions')}`);
  row('gc: longest hold of the write lock (ms)', get('gc_longest_write_ms'), '< 100', get('gc_longest_write_ms') < 100);
  row(
    '  write transactions; longest / median purge (ms)',
    `${get('gc_write_transactions')}; ${get('gc_longest_purge_ms')} / ${get('gc_median_purge_ms')}`,
  );
  row('  longest wait of gc for the recorder (ms)', get('gc_longest_wait_ms'));
  row(
    'gc: total (s); per purged run, structural record included (ms)',
    `${get('gc_total_s')}; ${get('gc_ms_per_purged_run')}`,
  );
  row(
    'recorder beside gc: runs / failures',
    `${get('gc_recorder_runs')} / ${get('gc_recorder_failures')}`,
    '0 failures',
    get('gc_recorder_failures') === 0,
  );
  if (firstFailure !== null) row('  first failure', firstFailure);
  row(
    'recorder beside gc: longest wait for the lock; longest hold (ms)',
    `${get('gc_recorder_longest_wait_ms')}; ${get('gc_recorder_longest_hold_ms')}`,
  );
  row('forkpoint runs: wall (s)', get('runs_wall_s'), '< 0.3', get('runs_wall_s') < 0.3);
  row('forkpoint runs: peak memory (MiB)', get('runs_max_rss_mib'), '< 100', get('runs_max_rss_mib') < 100);
}

function round(value, digits) {
  return Number(value.toFixed(digits));
}
