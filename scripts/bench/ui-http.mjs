// The web view's pages and their JSON, timed over HTTP: `startUiServer` on a free loopback port over the
// bench's engine, each URL fetched one request at a time on a kept-alive connection, body read whole.
import { runWordsFor } from '../../dist/src/cli/run-words.js';
import { startUiServer } from '../../dist/src/web/index.js';
import { sampled } from './ui-reads.mjs';

/**
 * The URLs timed: a name for the figures, what it shows, its path, and whether it reads the whole long run
 * (timed over fewer rounds: at this writing each such answer takes seconds).
 */
export function httpCases(longRunId, rareScenario) {
  return [
    ['runs', 'GET /runs (the first page)', '/runs', false],
    ['runs_fork', 'GET /runs?mode=fork', '/runs?mode=fork', false],
    [
      'runs_rare_scenario',
      'GET /runs?scenario=<0.1% of runs>',
      `/runs?scenario=${encodeURIComponent(rareScenario)}`,
      false,
    ],
    ['api_runs', 'GET /api/runs (its JSON)', '/api/runs', false],
    ['long_run', 'GET /runs/<the long run> (its page)', `/runs/${longRunId}`, true],
    ['long_run_step', 'GET /runs/<the long run>?step=4000 (a step opened)', `/runs/${longRunId}?step=4000`, true],
    ['api_long_run', 'GET /api/runs/<the long run> (its JSON)', `/api/runs/${longRunId}`, true],
  ].map(([name, label, path, heavy]) => ({ name, label, path, heavy }));
}

/** Rounds of a URL that reads the whole long run. */
export const HEAVY_TIMING = { rounds: 3, warmup: 1 };

/** Times each URL of {@link httpCases}; each must answer 200. */
export async function benchHttp(engine, longRunId, rareScenario, options) {
  const server = await startUiServer({ engine, words: runWordsFor, port: 0 });
  try {
    const results = [];
    for (const { name, label, path, heavy } of httpCases(longRunId, rareScenario)) {
      const url = new URL(path.slice(1), server.url).href;
      const fetched = async () => {
        const response = await fetch(url);
        const body = await response.text();
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${body.slice(0, 200)}`);
        return body.length;
      };
      const rounds = heavy ? HEAVY_TIMING : options;
      const timing = await sampled(fetched, rounds);
      results.push({ name, label, ...timing, rounds: rounds.rounds, bytes: timing.last });
    }
    return results;
  } finally {
    await server.close();
  }
}
