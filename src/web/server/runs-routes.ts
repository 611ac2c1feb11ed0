import { recentLineages } from '../data/index.js';
import type { RunsFilter } from '../pages/page-links.js';
import { SERVER_LINKS } from '../pages/page-links.js';
import { runsPage } from '../pages/runs-page.js';
import { scenarioReference } from '../../scenario/index.js';
import { RUN_MODES, RUN_STATUSES } from '../../vocabulary/index.js';
import type { Route } from './route-answer.js';
import { choiceParam, instantParam, integerParam, runIdParam, textParam } from './query-params.js';

/** The most runs one page lists, as `forkpoint runs --limit` allows. */
const MAX_LIMIT = 10_000;

/** The runs page and its JSON (`runs --json`), with the filters of `forkpoint runs`. */
export const RUNS_ROUTES: readonly Route[] = [
  { path: /^\/$/, answer: () => Promise.resolve({ kind: 'redirect', location: '/runs' }) },
  {
    path: /^\/runs$/,
    answer: async (_params, query, context) => {
      const filter = filterOf(query);
      const page = await context.engine.runPage(filter);
      // Only the landing page points to the stories: a filtered or later page shows what was asked for.
      const lineages = Object.keys(filter).length === 0 ? await recentLineages(context.engine) : [];
      const scenarios = [...page.runs, ...lineages.map((lineage) => lineage.run)].map((run) => run.scenario);
      const body = runsPage({ page, filter, lineages }, SERVER_LINKS, await context.words(scenarios));
      const search = query.toString();
      return { kind: 'page', parts: { title: 'runs', body, json: `/api/runs${search === '' ? '' : `?${search}`}` } };
    },
  },
  {
    path: /^\/api\/runs$/,
    answer: async (_params, query, context) => ({
      kind: 'json',
      document: await context.engine.runPage(filterOf(query)),
    }),
  },
];

function filterOf(query: URLSearchParams): RunsFilter {
  const before = textParam(query, 'before');
  const fields = {
    limit: integerParam(query, 'limit', 1, MAX_LIMIT),
    mode: choiceParam(query, 'mode', RUN_MODES),
    status: choiceParam(query, 'status', RUN_STATUSES),
    build: textParam(query, 'build'),
    scenario: scenarioParam(query),
    since: instantParam(query, 'since'),
    until: instantParam(query, 'until'),
    before: before === undefined ? undefined : runIdParam(before, 'before'),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

// A scenario named as `forkpoint runs --scenario` names it: as record stores it, however it is spelt.
function scenarioParam(query: URLSearchParams): string | undefined {
  const text = textParam(query, 'scenario');
  return text === undefined ? undefined : scenarioReference(text);
}
