// The long-run bench (`npm run bench:long`, which builds first): records the synthetic agent for 5,001
// steps with 2 KB tool results and measures what must not grow with a run's length or a suite's size:
// a fork at step 5,000 against the restore of checkpoint 4,999 it needs, the per-step overhead of a
// recording in the first and the last tenth of the run, and the peak memory of `forkpoint suite` over
// 1,000 and 5,000 exported cassettes. Prints a table with each figure's target, then, as its last line,
// one JSON object of the figures. Nothing is asserted. About a minute on a 2-core machine, most of it
// exporting and replaying the cassettes; `--quick` runs 1,001 steps and 1,000 / 2,000 cassettes instead.
//
// Options: --quick, --steps N (odd), --rounds N, --cassettes A,B (the counts the suite runs over).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchLongFork } from './bench/long-fork.mjs';
import { benchLongSteps } from './bench/long-steps.mjs';
import { fixed, formatTable, heading, informative, machine, targeted } from './bench/report.mjs';
import { benchSuiteMemory } from './bench/suite-memory.mjs';
import { syntheticAgentCapped } from './bench/synthetic-agent.mjs';
import { msSince } from './bench/timing.mjs';

const RESULT_BYTES = 2048;
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    steps: { type: 'string' },
    rounds: { type: 'string' },
    cassettes: { type: 'string' },
  },
});
const steps = Number(values.steps ?? (values.quick ? 1001 : 5001));
if (!Number.isInteger(steps) || steps < 21 || steps % 2 === 0)
  throw new Error('--steps takes an odd number of at least 21 (model and tool steps in pairs, then the final turn)');
const rounds = Number(values.rounds ?? (values.quick ? 3 : 9));
const counts = (values.cassettes ?? (values.quick ? '1000,2000' : '1000,5000')).split(',').map(Number);
if (counts.length < 2 || counts.some((count) => !Number.isInteger(count) || count < 1))
  throw new Error('--cassettes takes two or more counts, e.g. 1000,5000');
// The step cap must let the run reach its final turn.
const agent = syntheticAgentCapped(steps + 1);

const started = process.hrtime.bigint();
const host = machine();
const work = mkdtempSync(join(tmpdir(), 'forkpoint-bench-long-'));
try {
  // The per-step figures first, on a fresh heap: the fork bench leaves a large one behind for the GC.
  const perStep = await benchLongSteps({ dir: work, agent, steps, rounds, resultBytes: RESULT_BYTES });
  const fork = await benchLongFork({ dir: work, agent, steps, resultBytes: RESULT_BYTES, rounds: Math.max(rounds, 9) });
  const suite = await benchSuiteMemory(work, counts);
  const benchS = msSince(started) / 1000;

  const ms = (value) => `${value.toFixed(3)} ms`;
  const first = perStep.tenths[0];
  const last = perStep.tenths[9];
  const creep = last.overheadMs / first.overheadMs;
  const sorted = [...counts].sort((a, b) => a - b);
  const smallest = suite[sorted[0]];
  const largest = suite[sorted[sorted.length - 1]];
  const peakCeiling = 150;
  // Flat: what each cassette past the smaller count added to the peak. Holding every cassette cost about
  // 133 KiB each; a flat suite adds what its list of cases holds, and V8's heap settling at its size.
  const growthKiB = ((largest.peakMiB - smallest.peakMiB) * 1024) / (sorted[sorted.length - 1] - sorted[0]);
  const flat = growthKiB <= 5;
  const rows = [
    heading(
      `fork at step ${fork.atStep} of a ${steps}-step run (changed tool result, run to the end) against restoring checkpoint ${fork.atStep - 1}`,
    ),
    informative(`restore_ms (checkpoint ${fork.atStep - 1})`, ms(fork.restoreMs)),
    informative(`fork_ms (fork at step ${fork.atStep}; its steps not read)`, ms(fork.forkMs)),
    targeted('fork_over_restore (median of the rounds\u2019 ratios)', fork.ratio.toFixed(2), '<= 2', fork.ratio <= 2),
    informative(`  reading the fork's ${steps} steps afterwards (engine.getRun)`, ms(fork.forkStepsMs)),
    informative(`  reading the parent's ${steps} steps (engine.getRun, as show does)`, ms(fork.showMs)),
    heading(
      `per-step overhead of a ${steps}-step recording over the bare driver, median of ${rounds} rounds (tool results ${RESULT_BYTES} B)`,
    ),
    ...perStep.tenths.map((tenth, i) =>
      informative(
        `  tenth ${i + 1}: recorded / bare / overhead ms per step`,
        `${tenth.recordedMs.toFixed(4)} / ${tenth.bareMs.toFixed(4)} / ${tenth.overheadMs.toFixed(4)}`,
      ),
    ),
    informative('overhead_ms_first_tenth', ms(first.overheadMs)),
    informative('overhead_ms_last_tenth', ms(last.overheadMs)),
    targeted('overhead_last_over_first', creep.toFixed(2), '<= 1.2', creep <= 1.2),
    heading(`forkpoint suite --json over exported claims-triage cassettes: peak resident memory (${largest.via})`),
    ...sorted.map((count) =>
      informative(
        `suite_peak_mib_${count}`,
        `${suite[count].peakMiB.toFixed(1)} MiB (${suite[count].passed}/${suite[count].cases} passed, ${suite[count].wallS.toFixed(1)} s)`,
      ),
    ),
    targeted(
      `suite_peak_mib_${sorted[sorted.length - 1]}`,
      `${largest.peakMiB.toFixed(1)} MiB`,
      `< ${peakCeiling} MiB`,
      largest.peakMiB < peakCeiling,
    ),
    targeted(
      `suite_peak_kib_per_cassette (from ${sorted[0]} to ${sorted[sorted.length - 1]})`,
      growthKiB.toFixed(2),
      'flat (<= 5 KiB; 133 before streaming)',
      flat,
    ),
  ];
  const missed = rows.filter((row) => row.verdict === 'MISSED').map((row) => row.figure.split(' ')[0]);

  console.log(`machine: ${host}`);
  console.log(formatTable(rows));
  console.log(
    `bench:long: ${benchS.toFixed(1)} s (build not included); targets missed: ${missed.length === 0 ? 'none' : missed.join(', ')}`,
  );
  console.log(
    JSON.stringify({
      steps,
      restore_ms: fixed(fork.restoreMs, 3),
      fork_ms: fixed(fork.forkMs, 3),
      fork_over_restore: fixed(fork.ratio, 2),
      fork_steps_read_ms: fixed(fork.forkStepsMs, 3),
      show_steps_read_ms: fixed(fork.showMs, 3),
      overhead_ms_first_tenth: fixed(first.overheadMs, 4),
      overhead_ms_last_tenth: fixed(last.overheadMs, 4),
      overhead_last_over_first: fixed(creep, 2),
      ...Object.fromEntries(sorted.map((count) => [`suite_peak_mib_${count}`, fixed(suite[count].peakMiB, 1)])),
      suite_peak_kib_per_cassette: fixed(growthKiB, 2),
      targets_missed: missed,
      bench_s: fixed(benchS, 1),
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
