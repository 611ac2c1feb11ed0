// Peak memory of `forkpoint suite` as the number of cassettes grows.
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { exportCassettes } from './suite.mjs';

const TIME = '/usr/bin/time';
// Without GNU time, the suite's own process reports its peak when it exits.
const REPORT_MAX_RSS =
  "data:text/javascript,process.on('exit',()=>process.stderr.write('forkpoint-bench maxrss kB: '+process.resourceUsage().maxRSS+'\\n'))";

/** Peak resident memory (MiB) and wall seconds of one `forkpoint suite` over `folder`, and its cases. */
function measureSuite(folder) {
  const args = [
    'bin/forkpoint.js',
    'suite',
    folder,
    '--scenario',
    'scenarios/claims-triage',
    '--build',
    'baseline',
    '--json',
  ];
  const gnuTime = existsSync(TIME);
  const [command, argv] = gnuTime
    ? [TIME, ['-v', process.execPath, ...args]]
    : [process.execPath, ['--import', REPORT_MAX_RSS, ...args]];
  const started = process.hrtime.bigint();
  const result = spawnSync(command, argv, { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`suite exited ${result.status}: ${result.stderr}`);
  const match = gnuTime
    ? /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)
    : /forkpoint-bench maxrss kB: (\d+)/.exec(result.stderr);
  if (match === null) throw new Error(`no peak memory in the suite's stderr: ${result.stderr}`);
  const summary = JSON.parse(result.stdout);
  return {
    peakMiB: Number(match[1]) / 1024,
    wallS,
    cases: summary.cases.length,
    passed: summary.passed,
    via: gnuTime ? 'GNU time' : 'process.resourceUsage',
  };
}

/**
 * Exports the largest of `counts` cassettes once, links the first `count` of them into a folder of
 * their own for each smaller count, and runs `forkpoint suite` over each folder, smallest first.
 */
export async function benchSuiteMemory(dir, counts) {
  const largest = Math.max(...counts);
  const all = await exportCassettes(dir, largest);
  const files = readdirSync(all).sort();
  const results = {};
  for (const count of [...counts].sort((a, b) => a - b)) {
    let folder = all;
    if (count < largest) {
      folder = join(dir, `cassettes-${count}`);
      mkdirSync(folder);
      for (const file of files.slice(0, count)) linkSync(join(all, file), join(folder, file));
    }
    results[count] = measureSuite(folder);
    if (results[count].cases !== count)
      throw new Error(`the suite over ${count} cassettes reported ${results[count].cases} cases`);
  }
  return results;
}
