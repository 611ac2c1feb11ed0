// Measures `forkpoint suite` over 100 exported cassettes alone: the wall time of the whole command,
// process start included (target: under one second; the chapter's harness took 340 ms for a single
// replay). Run with `npm run bench:suite`; `npm run bench` measures it with everything else.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchSuite } from './bench/suite.mjs';

const work = mkdtempSync(join(tmpdir(), 'forkpoint-bench-suite-'));
try {
  const suite = await benchSuite(work, { rounds: 7 });
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, node ${process.version}`);
  console.log(
    `forkpoint suite over 100 cassettes: median ${suite.wallS.toFixed(3)} s (${suite.fastestS.toFixed(3)}-${suite.slowestS.toFixed(3)}); bare node ${suite.bareNodeS.toFixed(3)} s`,
  );
  console.log(
    JSON.stringify({
      suite_100_wall_s: Number(suite.wallS.toFixed(3)),
      bare_node_s: Number(suite.bareNodeS.toFixed(3)),
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
