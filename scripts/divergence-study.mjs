// The first-divergence study: records the claims-triage divergence study on 2026-03-04 (most claims with
// baseline, a few timestamped, a few with an older release of baseline, one kept only in its structural tier),
// then re-executes every run twice against the world of 2026-03-09 through the CLI's `divergence-report` and
// prints the chapter's table. Run with `npm run divergence-study` (it builds first).
//   --db PATH   record into PATH and keep it (default: a temporary database, removed afterwards)
//   --seed N    the base of the re-executions' seeds (default 1, so the table is the same on every run)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { recordDivergenceStudy } from '../dist/studies/divergence/record-study.js';
import { runCli } from '../dist/src/cli/main.js';
import { createEngine } from '../dist/src/engine/index.js';
import { sqliteStore } from '../dist/src/store/index.js';

const AT = '2026-03-09';
const REPEATS = '2';

const { values } = parseArgs({ options: { db: { type: 'string' }, seed: { type: 'string', default: '1' } } });
const temporary = values.db === undefined ? mkdtempSync(join(tmpdir(), 'forkpoint-divergence-')) : undefined;
const db = values.db ?? join(temporary, 'study.db');
// An absolute scenario path, so the CLI finds the builds whatever directory this is run from.
const scenario = resolve(fileURLToPath(new URL('..', import.meta.url)), 'scenarios/claims-triage');

try {
  let started = process.hrtime.bigint();
  const store = sqliteStore({ path: db });
  let runs;
  try {
    runs = await recordDivergenceStudy(createEngine({ store }), { scenario });
  } finally {
    await store.close();
  }
  const recordSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const counts = new Map();
  for (const run of runs) {
    const label = run.structuralOnly ? `${run.release} (structural tier only)` : run.release;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const byRelease = [...counts].map(([label, count]) => `${count} ${label}`).join(', ');
  console.log(`recorded ${runs.length} runs on 2026-03-04 into ${db}: ${byRelease} (${recordSeconds.toFixed(2)} s)\n`);

  started = process.hrtime.bigint();
  // The study's world is made up: its re-executions may register repair estimates in it, by name, so the
  // table measures the world and the model rather than the side-effect firewall.
  const args = [
    'divergence-report',
    '--runs',
    runs.map((run) => run.runId).join(','),
    '--at',
    AT,
    '--repeats',
    REPEATS,
    '--seed',
    values.seed,
    '--side-effects',
    'estimate_repair=live',
    '--db',
    db,
  ];
  console.log(`$ forkpoint ${args.slice(0, 2).join(' ')} <${runs.length} runs> ${args.slice(3).join(' ')}\n`);
  process.exitCode = await runCli(args);
  const reportSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    `\nelapsed: recording ${recordSeconds.toFixed(2)} s, report ${reportSeconds.toFixed(2)} s (${runs.length} runs × ${REPEATS} re-executions)`,
  );
} finally {
  if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
}
