// Measures `forkpoint suite` over 100 exported cassettes: wall time of the whole command, process start
// included (target: under one second; the chapter's harness took 340 ms for a single replay).
// Run with `npm run bench:suite`. Prints a table, then one JSON line of figures.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, serializeCassette, sqliteStore } from '../dist/src/index.js';
import scenario from '../dist/scenarios/claims-triage/index.js';

const ROUNDS = 7;
const work = mkdtempSync(join(tmpdir(), 'forkpoint-bench-suite-'));
try {
  const cassettes = join(work, 'cassettes');
  mkdirSync(cassettes);
  const store = sqliteStore({ path: join(work, 'recordings.db') });
  const engine = createEngine({ store });
  const claims = scenario.allInputs();
  for (let i = 0; i < 100; i++) {
    const at = i % 2 === 0 ? '2026-03-04' : '2026-03-09';
    const input = claims[i % claims.length];
    const run = await engine.record({ agent: scenario.builds.baseline, world: (seed) => scenario.openWorld({ at, seed, latencyMs: 0 }), input, at, seed: i, scenario: 'scenarios/claims-triage' });
    writeFileSync(join(cassettes, `${String(i).padStart(3, '0')}-${input.claimId}.cassette.json`), serializeCassette(engine.cassette(run.runId)));
  }
  store.close();

  const walls = [];
  let last;
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    last = spawnSync(process.execPath, ['bin/forkpoint.js', 'suite', cassettes, '--scenario', 'scenarios/claims-triage', '--build', 'baseline', '--json'], { encoding: 'utf8' });
    walls.push(Number(process.hrtime.bigint() - started) / 1e9);
    if (last.status !== 0) throw new Error(`suite exited ${last.status}: ${last.stderr}`);
  }
  const result = JSON.parse(last.stdout);
  const started = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  const bareNode = Number(process.hrtime.bigint() - started) / 1e9;
  walls.sort((a, b) => a - b);
  const median = walls[Math.floor(walls.length / 2)];
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
  console.log('figure                               value');
  console.log(`suite over 100 cassettes (median of ${ROUNDS})  ${median.toFixed(3)} s wall, process start included`);
  console.log(`  fastest / slowest                  ${walls[0].toFixed(3)} s / ${walls.at(-1).toFixed(3)} s`);
  console.log(`  per cassette                       ${((median / 100) * 1000).toFixed(2)} ms`);
  console.log(`  bare node start, for reference     ${bareNode.toFixed(3)} s`);
  console.log(`  cases                              ${result.passed} passed, ${result.failed} failed, ${result.diverged} diverged`);
  console.log(JSON.stringify({ suite_100_wall_s: Number(median.toFixed(3)), suite_100_per_cassette_ms: Number(((median / 100) * 1000).toFixed(2)), cassettes: result.cases.length, passed: result.passed }));
} finally {
  rmSync(work, { recursive: true, force: true });
}
