// The performance bench (`npm run bench`, which builds first): records a synthetic agent whose tool
// results are 2 KB at 9, 51 and 201 steps, restores checkpoints, times canonical JSON (forkpoint's own
// against fast-json-stable-stringify), replays the claims-triage incident, runs `forkpoint suite` over
// 100 cassettes and sizes the incident's cassettes. Prints a table with
// each figure's target, then, as its last line, one JSON object of the figures. Nothing is asserted:
// the figures are for reading. Round counts keep the whole command, build included, well under 50 s
// on a 2-core machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStore } from '../dist/src/store/index.js';
import { benchCanonicalJson } from './bench/canonical-json.mjs';
import { benchIncident } from './bench/incident.mjs';
import { syntheticAgent } from './bench/synthetic-agent.mjs';
import { benchRecording } from './bench/recording.mjs';
import { fixed, formatTable, heading, informative, machine, targeted } from './bench/report.mjs';
import { benchForkResume, benchRestore } from './bench/restore.mjs';
import { settledBytes } from './bench/sqlite-file.mjs';
import { benchSuite } from './bench/suite.mjs';
import { msSince } from './bench/timing.mjs';

const RESULT_BYTES = 2048;
// Single runs take from a fraction of a millisecond to a few on a busy 2-core machine, with long tails
// (GC, other processes, WAL checkpoints), so shorter runs, which are cheap, get more rounds for a steadier
// median. The first rounds of each length warm the JIT and are dropped.
// V8 needs a few thousand steps before the recording path is fully optimized: the 9-step length, which
// comes first, warms it with 400 runs (about a second), and the others top it up.
const LENGTHS = [
  { steps: 9, rounds: 101, warmup: 400 },
  { steps: 51, rounds: 41, warmup: 20 },
  { steps: 201, rounds: 41, warmup: 4 },
];
const SUITE_ROUNDS = 7;
// What benchCanonicalJson serializes: plain values whole, then the message the request hasher digests per step.
const CANONICAL_CASES = {
  state: 'checkpoint state after step 200',
  request: 'model request 201, messages inline',
  recorded_message: 'message of step 200 when recording, its output known',
  replayed_message: 'the same when replaying, its output frozen',
};

const started = process.hrtime.bigint();
const host = machine();
const work = mkdtempSync(join(tmpdir(), 'forkpoint-bench-'));
try {
  const empty = sqliteStore({ path: join(work, 'empty.db') });
  const emptyDb = settledBytes(empty.location);
  await empty.close();

  const recordings = {};
  for (const length of LENGTHS) {
    recordings[length.steps] = await benchRecording({
      dir: work,
      resultBytes: RESULT_BYTES,
      empty: emptyDb,
      ...length,
    });
  }
  const longest = recordings[201];
  const restore = await benchRestore(longest.engine, longest.run);
  const forkResume = await benchForkResume(longest.engine, longest.run, syntheticAgent, longest.world);
  const canonical = await benchCanonicalJson(longest.engine, longest.run, syntheticAgent);
  for (const recording of Object.values(recordings)) await recording.engine.store.close();
  const incident = await benchIncident(work);
  const suite = await benchSuite(work, { rounds: SUITE_ROUNDS });
  const benchS = msSince(started) / 1000;

  const ms = (value) => `${value.toFixed(3)} ms`;
  // A message's canonical text takes microseconds: three decimals of a millisecond would round it away.
  const fine = (value) => (value < 0.1 ? `${(value * 1000).toFixed(2)} µs` : ms(value));
  const overhead = (steps) => recordings[steps].overheadMs;
  const restoreOverParse = restore.lastOverParse;
  const structuralOverFull = incident.structuralBytes / incident.fullBytes;
  const rows = [
    heading(
      `per-step overhead: engine.record into an open file database minus the bare driver run just before it, median of the pairs (tool results ${RESULT_BYTES} B)`,
    ),
    ...LENGTHS.flatMap(({ steps, rounds }) => [
      informative(`record ms/step, ${steps} steps (median of ${rounds})`, ms(recordings[steps].recordMsPerStep)),
      informative(`bare ms/step, ${steps} steps`, ms(recordings[steps].bareMsPerStep)),
    ]),
    targeted('overhead_ms_9', ms(overhead(9)), '<= 0.1 ms', overhead(9) <= 0.1),
    informative('overhead_ms_51', ms(overhead(51))),
    targeted(
      'overhead_ms_201',
      ms(overhead(201)),
      `<= 0.1 ms and <= 1.5 x overhead_ms_9 (${ms(1.5 * overhead(9))})`,
      overhead(201) <= 0.1 && overhead(201) <= 1.5 * overhead(9),
    ),
    informative(
      '  mean overhead, 9 / 51 / 201 steps (WAL checkpoints, GC)',
      LENGTHS.map(({ steps }) => ms(recordings[steps].meanOverheadMs)).join(' / '),
    ),
    heading(
      'storage: database bytes of one run after wal_checkpoint(TRUNCATE), minus an empty database, over raw payload bytes',
    ),
    ...LENGTHS.map(({ steps }) => {
      const { runBytes, payloadBytes, storageRatio } = recordings[steps];
      const figure = `storage_ratio_${steps}`;
      const value = `${storageRatio.toFixed(3)} (${runBytes} B / ${payloadBytes} B)`;
      return steps === 201 ? targeted(figure, value, '<= 1.5', storageRatio <= 1.5) : informative(figure, value);
    }),
    informative('  empty database', `${emptyDb.bytes} B`),
    ...longest.byObject.map((object) =>
      informative(
        `  201 steps, added to ${object.name}`,
        `${object.bytes} B of pages: ${object.payload} B payload, ${object.unused} B unused`,
      ),
    ),
    heading('restore, 201-step run'),
    informative('restore_ms_first (checkpoint 1)', ms(restore.firstMs)),
    targeted(`restore_ms_last (checkpoint ${restore.step})`, ms(restore.lastMs), '<= 1 ms', restore.lastMs <= 1),
    informative(`restore_parse_ms_last (JSON.parse of its ${restore.stateBytes} B state)`, ms(restore.parseMs)),
    targeted('restore_over_parse_last', restoreOverParse.toFixed(2), '<= 2', restoreOverParse <= 2),
    informative(
      `fork_resume_ms_201 (fork at step ${forkResume.atStep}, changed tool result, run to the end)`,
      ms(forkResume.ms),
    ),
    heading(
      "canonical JSON, 201-step run: forkpoint's own (src/json/canonical-json.ts) vs fast-json-stable-stringify, per call",
    ),
    ...Object.entries(CANONICAL_CASES).map(([name, label]) => {
      const { bytes, ownMs, packageMs, ratio } = canonical[name];
      return informative(
        `canonical_${name} (${label}, ${bytes} B)`,
        `${fine(ownMs)} vs ${fine(packageMs)} (package x${ratio.toFixed(2)})`,
      );
    }),
    heading(`claims-triage incident 9b40c1d5 (${incident.steps} steps)`),
    targeted('replay_incident_ms (strict, median of 301)', ms(incident.replayMs), '<= 1 ms', incident.replayMs <= 1),
    informative('  90th percentile', ms(incident.replayP90Ms)),
    informative('full cassette', `${incident.fullBytes} B`),
    informative('structural cassette', `${incident.structuralBytes} B`),
    targeted('structural_over_full', structuralOverFull.toFixed(3), '<= 0.1', structuralOverFull <= 0.1),
    heading('forkpoint suite over 100 cassettes, process start included'),
    targeted(`suite_100_wall_s (median of ${SUITE_ROUNDS})`, `${suite.wallS.toFixed(3)} s`, '< 1 s', suite.wallS < 1),
    informative('  fastest / slowest', `${suite.fastestS.toFixed(3)} s / ${suite.slowestS.toFixed(3)} s`),
    informative('  bare node start, for reference', `${suite.bareNodeS.toFixed(3)} s`),
    informative(
      '  cases',
      `${suite.cases.passed} passed, ${suite.cases.failed} failed, ${suite.cases.diverged} diverged`,
    ),
  ];
  const missed = rows.filter((row) => row.verdict === 'MISSED').map((row) => row.figure.split(' ')[0]);

  console.log(`machine: ${host}`);
  console.log(formatTable(rows));
  console.log(
    `bench: ${benchS.toFixed(1)} s (build not included); targets missed: ${missed.length === 0 ? 'none' : missed.join(', ')}`,
  );
  console.log(
    JSON.stringify({
      storage_ratio_9: fixed(recordings[9].storageRatio, 3),
      storage_ratio_51: fixed(recordings[51].storageRatio, 3),
      storage_ratio_201: fixed(longest.storageRatio, 3),
      overhead_ms_9: fixed(overhead(9), 4),
      overhead_ms_51: fixed(overhead(51), 4),
      overhead_ms_201: fixed(overhead(201), 4),
      mean_overhead_ms_9: fixed(recordings[9].meanOverheadMs, 4),
      mean_overhead_ms_201: fixed(longest.meanOverheadMs, 4),
      record_ms_per_step_201: fixed(longest.recordMsPerStep, 4),
      bare_ms_per_step_201: fixed(longest.bareMsPerStep, 4),
      restore_ms_first: fixed(restore.firstMs, 4),
      restore_ms_last: fixed(restore.lastMs, 4),
      restore_parse_ms_last: fixed(restore.parseMs, 4),
      restore_over_parse_last: fixed(restoreOverParse, 2),
      fork_resume_ms_201: fixed(forkResume.ms, 3),
      ...Object.fromEntries(
        Object.keys(CANONICAL_CASES).flatMap((name) => [
          [`canonical_${name}_ms`, fixed(canonical[name].ownMs, 5)],
          [`canonical_${name}_package_ms`, fixed(canonical[name].packageMs, 5)],
        ]),
      ),
      replay_incident_ms: fixed(incident.replayMs, 3),
      replay_incident_p90_ms: fixed(incident.replayP90Ms, 3),
      suite_100_wall_s: fixed(suite.wallS, 3),
      full_bytes: incident.fullBytes,
      structural_bytes: incident.structuralBytes,
      structural_over_full: fixed(structuralOverFull, 3),
      targets_missed: missed,
      bench_s: fixed(benchS, 1),
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
