// One recorder process of the Postgres throughput bench: opens the store, records one warm-up run, says
// `ready`, waits for `go` on stdin, records runs of `steps` steps for `seconds`, and prints one JSON line
// of how many it finished. Run by scripts/bench-postgres.mjs, never on its own.
import { createInterface } from 'node:readline';
import { createEngine } from '../../dist/src/engine/index.js';
import { postgresStore } from '../../dist/src/entries/postgres.js';
import { INPUT, syntheticAgent, syntheticWorld, toolCallsFor } from './synthetic-agent.mjs';
import { msSince } from './timing.mjs';

const [url, schema, steps, seconds] = process.argv.slice(2);
const world = syntheticWorld({ toolCalls: toolCallsFor(Number(steps)), resultBytes: 2048 });
const engine = createEngine({ store: postgresStore({ connectionString: url, schema }) });
const record = async () => {
  const run = await engine.record({ agent: syntheticAgent, world, input: INPUT });
  if (run.status !== 'completed') throw new Error(`a recording ended ${run.status}`);
};
await record();
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line === 'go') break;
lines.close();
const started = process.hrtime.bigint();
let runs = 0;
while (msSince(started) < Number(seconds) * 1000) {
  await record();
  runs++;
}
const ms = msSince(started);
await engine.store.close();
process.stdout.write(`${JSON.stringify({ runs, ms })}\n`);
