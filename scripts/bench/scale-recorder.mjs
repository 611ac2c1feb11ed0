// A recorder in its own process, for bench-scale: records runs of the synthetic agent under the default
// capture policy into `--db` until a line arrives on stdin, timing every write it makes, and prints one
// JSON line: runs recorded, failures (with the first message), and the longest write in milliseconds.
// It prints `ready` once its first run is in, so that gc starts against a recorder already at work.
import { parseArgs } from 'node:util';
import { createEngine, parseCapturePolicy, sqliteStore } from '../../dist/src/index.js';
import { MEASURED_AT, scaleWorld } from './scale-database.mjs';
import { INPUT, syntheticAgent } from './synthetic-agent.mjs';

const { values } = parseArgs({ options: { db: { type: 'string' } } });
const store = sqliteStore({ path: values.db });
let longestWriteMs = 0;
const timed = (fn) => (...args) => {
  const started = process.hrtime.bigint();
  try {
    return fn(...args);
  } finally {
    longestWriteMs = Math.max(longestWriteMs, Number(process.hrtime.bigint() - started) / 1e6);
  }
};
const engine = createEngine({
  store: { ...store, createRun: timed(store.createRun), commitStep: timed(store.commitStep), purgeRuns: timed(store.purgeRuns), finishRun: timed(store.finishRun) },
  clock: () => MEASURED_AT,
});
const capture = parseCapturePolicy('errors+sample:0.01');
let stop = false;
process.stdin.on('data', () => (stop = true));
let runs = 0;
let failures = 0;
let firstFailure = null;
while (!stop) {
  try {
    await engine.record({ agent: syntheticAgent, world: scaleWorld, input: INPUT, capture });
    runs++;
  } catch (error) {
    failures++;
    firstFailure ??= error instanceof Error ? `${error.code ?? ''} ${error.message}` : String(error);
  }
  if (runs + failures === 1) process.stdout.write('ready\n');
  // Lets the stop line in: every call above is synchronous underneath.
  await new Promise((resolve) => setImmediate(resolve));
}
store.close();
process.stdout.write(`${JSON.stringify({ runs, failures, firstFailure, longestWriteMs })}\n`);
