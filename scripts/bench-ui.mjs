// The web view's bench (`npm run bench:ui`, which builds first): builds a SQLite store of 100,000 runs over
// 30 days, of every mode, status, build and scenario (see bench/ui-database.mjs), with one 5,001-step run as
// the newest, and measures what the view reads there:
//   - engine.runPage: the first page, a page 99,000 runs deep (cursor), and a page for each filter and a few
//     combinations, rare and common;
//   - the long run: its first 200-step window (readStepViews), all of it (engine.getRun), its summary;
//   - over HTTP (startUiServer on loopback): /runs, /runs?mode=fork, /runs?scenario=..., /api/runs, and the
//     long run's page, its page with a step opened, and its JSON (these three over fewer rounds).
// Each figure is the median and p95 of --rounds calls after a warm-up. Progress goes to stderr; stdout
// has a table, then, as its last line, one JSON object of the figures. Nothing is asserted.
// Options: --runs N (default 100000), --with-steps (each run keeps its 9 step rows: the build takes about a
// minute instead of ten seconds; a page reads no step), --long-steps N (odd, default 5001), --rounds N
// (default 30), --keep DIR (keep the database there).
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../dist/src/engine/index.js';
import { sqliteStore } from '../dist/src/store/index.js';
import { fixed, formatTable, heading, informative, machine } from './bench/report.mjs';
import { msSince } from './bench/timing.mjs';
import { buildUiDatabase, MEASURED_AT, SCENARIOS } from './bench/ui-database.mjs';
import { benchHttp } from './bench/ui-http.mjs';
import { benchLongRun, benchPages } from './bench/ui-reads.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string' },
    'with-steps': { type: 'boolean' },
    'long-steps': { type: 'string' },
    rounds: { type: 'string' },
    keep: { type: 'string' },
  },
});
const runs = Number(values.runs ?? 100_000);
const longSteps = Number(values['long-steps'] ?? 5001);
const rounds = Number(values.rounds ?? 30);
if (!Number.isInteger(runs) || runs < 2000) throw new Error('--runs takes a whole number of at least 2000');
if (!Number.isInteger(longSteps) || longSteps < 201 || longSteps % 2 === 0)
  throw new Error(
    '--long-steps takes an odd number of at least 201 (model and tool steps in pairs, then the final turn)',
  );
if (!Number.isInteger(rounds) || rounds < 5) throw new Error('--rounds takes a whole number of at least 5');
const WINDOW = 200;
const RESULT_BYTES = 2048;
const timing = { rounds, warmup: 3 };
const note = (text) => process.stderr.write(`bench-ui: ${text}\n`);

const started = process.hrtime.bigint();
const host = machine();
const work = values.keep ?? mkdtempSync(join(tmpdir(), 'forkpoint-bench-ui-'));
mkdirSync(work, { recursive: true });
const path = join(work, `ui-${runs}.db`);
try {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
  note(
    `building ${runs} runs${values['with-steps'] ? ' with their steps' : ''} and one of ${longSteps} steps in ${path}`,
  );
  const building = process.hrtime.bigint();
  const longRunId = await buildUiDatabase(
    path,
    { runs, withSteps: values['with-steps'] === true, longSteps, resultBytes: RESULT_BYTES },
    (done) => note(`  ${done}/${runs} (${(msSince(building) / 1000).toFixed(1)} s)`),
  );
  const buildS = msSince(building) / 1000;
  const fileMiB = statSync(path).size / 2 ** 20;
  note(`built in ${buildS.toFixed(1)} s, ${fileMiB.toFixed(0)} MiB`);

  // The reads' clock is the end of the span; every lease has lapsed by it.
  const store = sqliteStore({ path });
  const engine = createEngine({ store, clock: () => MEASURED_AT, leaseClock: () => MEASURED_AT.getTime() });
  let pages;
  let long;
  let http;
  try {
    note('timing pages of runs');
    pages = await benchPages(engine, runs, timing);
    note('timing the long run');
    long = await benchLongRun(engine, longRunId, longSteps, WINDOW, timing);
    note('timing the web view over HTTP');
    http = await benchHttp(engine, longRunId, longSteps, SCENARIOS.rare, timing);
  } finally {
    await store.close();
  }
  const benchS = msSince(started) / 1000;

  const ms = (value) => `${value.toFixed(2)} ms`;
  const pair = (figure) => `${ms(figure.medianMs)} / ${ms(figure.p95Ms)}`;
  const slowest = (list) => list.reduce((worst, next) => (next.p95Ms > worst.p95Ms ? next : worst));
  const rows = [
    heading(`engine.runPage over ${runs} runs: median / p95 of ${rounds} (runs shown; another page follows?)`),
    ...pages.map((page) =>
      informative(`${page.name}: ${page.label}`, `${pair(page)} (${page.shown}${page.more ? ', more' : ''})`),
    ),
    heading(`the ${longSteps}-step run: median / p95`),
    informative(`first ${WINDOW}-step window (readStepViews through step ${WINDOW})`, pair(long.first)),
    informative(`all ${longSteps} steps (engine.getRun, as the run page reads it)`, pair(long.whole)),
    informative('its summary (engine.getRunSummary)', pair(long.summary)),
    heading(`the web view over HTTP (startUiServer): median / p95 of ${rounds} (body)`),
    ...http.map((answer) =>
      informative(
        `${answer.name}: ${answer.label}`,
        `${pair(answer)} (${(answer.bytes / 1024).toFixed(0)} KiB${answer.rounds === rounds ? '' : `; ${answer.rounds} rounds`})`,
      ),
    ),
  ];
  const worstPage = slowest(pages);
  const worstRunsUrl = slowest(http.filter((answer) => answer.name.includes('runs') && !answer.name.includes('long')));
  console.log(`machine: ${host}`);
  console.log(formatTable(rows));
  console.log(
    `bench:ui: ${benchS.toFixed(1)} s, build ${buildS.toFixed(1)} s (${fileMiB.toFixed(0)} MiB); slowest page p95 ${ms(worstPage.p95Ms)} (${worstPage.name}), slowest runs URL p95 ${ms(worstRunsUrl.p95Ms)} (${worstRunsUrl.name}); issue 19 asks for well under a second`,
  );
  const figure = (list, prefix) =>
    Object.fromEntries(
      list.flatMap((each) => [
        [`${prefix}${each.name}_median_ms`, fixed(each.medianMs, 3)],
        [`${prefix}${each.name}_p95_ms`, fixed(each.p95Ms, 3)],
      ]),
    );
  console.log(
    JSON.stringify({
      runs,
      with_steps: values['with-steps'] === true,
      long_steps: longSteps,
      rounds,
      build_s: fixed(buildS, 1),
      file_mib: fixed(fileMiB, 1),
      ...figure(pages, 'page_'),
      window_median_ms: fixed(long.first.medianMs, 3),
      window_p95_ms: fixed(long.first.p95Ms, 3),
      long_run_median_ms: fixed(long.whole.medianMs, 3),
      long_run_p95_ms: fixed(long.whole.p95Ms, 3),
      summary_median_ms: fixed(long.summary.medianMs, 3),
      ...figure(http, 'http_'),
      bench_s: fixed(benchS, 1),
    }),
  );
} finally {
  if (values.keep === undefined) rmSync(work, { recursive: true, force: true });
}
