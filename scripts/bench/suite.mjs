// `forkpoint suite` over 100 exported cassettes: the wall time of the whole command, process start
// included. Used by scripts/bench.mjs and scripts/bench-suite.mjs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../dist/src/engine/index.js';
import { serializeCassette } from '../../dist/src/cassette/index.js';
import { sqliteStore } from '../../dist/src/store/index.js';
import scenario from '../../dist/scenarios/claims-triage/index.js';
import { median, timeOnce } from './timing.mjs';

const CASSETTES = 100;

/**
 * Writes `count` (default 100) baseline cassettes (claims in turn, on two dates) into `dir`/cassettes, in
 * the synthetic tier, as a CI suite's committed fixtures are: a full tier in the clear is refused.
 */
export async function exportCassettes(dir, count = CASSETTES) {
  const cassettes = join(dir, 'cassettes');
  mkdirSync(cassettes);
  const engine = createEngine({ store: sqliteStore({ path: join(dir, 'suite-recordings.db') }) });
  try {
    const claims = scenario.allInputs();
    for (let i = 0; i < count; i++) {
      const at = i % 2 === 0 ? '2026-03-04' : '2026-03-09';
      const input = claims[i % claims.length];
      const run = await engine.record({
        agent: scenario.builds.baseline,
        world: scenario.openWorld({ at, seed: i, latencyMs: 0 }),
        input,
        scenario: 'scenarios/claims-triage',
        tier: 'synthetic',
      });
      writeFileSync(
        join(cassettes, `${String(i).padStart(String(count - 1).length, '0')}-${input.claimId}.cassette.json`),
        serializeCassette(await engine.cassette(run.runId)),
      );
    }
  } finally {
    await engine.store.close();
  }
  return cassettes;
}

/** Median wall seconds of `forkpoint suite` over the cassettes, after one warm-up (which fills the file cache), and its last result. */
export async function benchSuite(dir, { rounds }) {
  const cassettes = await exportCassettes(dir);
  const command = [
    'bin/forkpoint.js',
    'suite',
    cassettes,
    '--scenario',
    'scenarios/claims-triage',
    '--build',
    'baseline',
    '--json',
  ];
  let result;
  const suite = () => {
    result = spawnSync(process.execPath, command, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`suite exited ${result.status}: ${result.stderr}`);
  };
  suite();
  const walls = [];
  for (let round = 0; round < rounds; round++) walls.push((await timeOnce(suite)) / 1000);
  const bareNodeS = (await timeOnce(() => spawnSync(process.execPath, ['-e', '0']))) / 1000;
  const cases = JSON.parse(result.stdout);
  return { wallS: median(walls), fastestS: Math.min(...walls), slowestS: Math.max(...walls), bareNodeS, cases };
}
