// The web view's pages and their JSON, timed over HTTP: `startUiServer` on a free loopback port over the
// bench's engine, each URL fetched one request at a time on a kept-alive connection, body read whole.
import { runWordsFor } from '../../dist/src/cli/run-words.js';
import { startUiServer } from '../../dist/src/web/index.js';
import { sampled } from './ui-reads.mjs';

/**
 * The URLs timed: a name for the figures, what it shows, its path, and whether it reads the whole long run
 * (timed over fewer rounds: at this writing each such answer takes seconds).
 */
export function httpCases(longRunId, longSteps, rareScenario) {
  const deep = Math.floor(longSteps * 0.8);
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
    ['long_run_step', `GET /runs/<the long run>?step=${deep} (a step opened)`, `/runs/${longRunId}?step=${deep}`, true],
    ['api_long_run', 'GET /api/runs/<the long run> (its JSON)', `/api/runs/${longRunId}`, true],
  ].map(([name, label, path, heavy]) => ({ name, label, path, heavy }));
}

/** Rounds of a URL that reads the whole long run. */
export const HEAVY_TIMING = { rounds: 3, warmup: 1 };

/**
 * Times each URL of {@link httpCases}; each must answer 200. Then the long run's page once more over an
 * engine whose `tierSizes` answers at once, to show what the page costs apart from sizing the run's tiers
 * (which serializes its whole cassette).
 */
export async function benchHttp(engine, longRunId, longSteps, rareScenario, options) {
  const cases = httpCases(longRunId, longSteps, rareScenario);
  const results = await timeUrls(engine, cases, options);
  const unsized = { ...engine, tierSizes: () => Promise.resolve({ full: null, structural: null }) };
  const page = cases.filter((each) => each.name === 'long_run');
  const [apart] = await timeUrls(unsized, page, options);
  results.push({
    ...apart,
    name: 'long_run_unsized',
    label: 'GET /runs/<the long run>, tiers not sized (tierSizes stubbed)',
  });
  return results;
}

async function timeUrls(engine, cases, options) {
  const server = await startUiServer({ engine, words: runWordsFor, port: 0 });
  try {
    const results = [];
    for (const { name, label, path, heavy } of cases) {
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
