// A recorder in its own process, for bench-scale: records runs of the synthetic agent under the default
// capture policy into `--db` until a line arrives on stdin, and prints one JSON line: runs recorded,
// failures (with the first message), its longest wait for the write lock and its longest hold of it
// (a commit that runs an automatic checkpoint holds it no longer, but is counted in full).
// It prints `ready` once its first run is in, so that gc starts against a recorder already at work.
import { parseArgs } from 'node:util';
import { createEngine } from '../../dist/src/engine/index.js';
import { parseCapturePolicy } from '../../dist/src/retention/index.js';
import { sqliteStore } from '../../dist/src/store/index.js';
import { MEASURED_AT, scaleWorld } from './scale-database.mjs';
import { INPUT, syntheticAgent } from './synthetic-agent.mjs';
import { installWriteTimer } from './write-timer.mjs';

const { values } = parseArgs({ options: { db: { type: 'string' } } });
const timer = installWriteTimer();
timer.recording = true;
const store = sqliteStore({ path: values.db });
const engine = createEngine({ store, clock: () => MEASURED_AT });
const capture = parseCapturePolicy('errors+sample:0.01');
let stop = false;
process.stdin.on('data', () => (stop = true));
let runs = 0;
let failures = 0;
let firstFailure = null;
while (!stop) {
  try {
    await engine.record({ agent: syntheticAgent, world: scaleWorld(), input: INPUT, capture });
    runs++;
  } catch (error) {
    failures++;
    firstFailure ??= error instanceof Error ? `${error.code ?? ''} ${error.message}` : String(error);
  }
  if (runs + failures === 1) process.stdout.write('ready\n');
  // Lets the stop line in: every call above is synchronous underneath.
  await new Promise((resolve) => setImmediate(resolve));
}
await store.close();
const longest = (list) => (list.length === 0 ? 0 : Math.max(...list));
process.stdout.write(
  `${JSON.stringify({ runs, failures, firstFailure, longestWaitMs: longest(timer.waits), longestHoldMs: longest(timer.holds) })}\n`,
);
