import { RUN_STATUSES } from '../../vocabulary/index.js';
import type { ClassesQuery, SimilarQuery } from '../../workflows/index.js';
import { runClasses, similarRuns } from '../../workflows/index.js';
import { classesPage } from '../pages/classes-page.js';
import { SERVER_LINKS, classesUrl, similarUrl } from '../pages/page-links.js';
import { similarPage } from '../pages/similar-page.js';
import type { Route } from './route-answer.js';
import { choiceParam, periodParam, runIdParam } from './query-params.js';

// The statuses a run ends with: `classes --status` offers these and no other.
// A run waiting for a person's approval has not ended either: it has no signature, so no class.
const ENDED = RUN_STATUSES.filter(
  (status) => status !== 'running' && status !== 'interrupted' && status !== 'awaiting-approval',
);

/**
 * Whether a run is one of a class: every class of a period (`classes --json`)
 * and the runs like one run (`similar <id> --json`), read from the signatures
 * the store keeps (nothing is run, no payload is read).
 */
export const SIGNATURE_ROUTES: readonly Route[] = [
  {
    path: /^\/classes$/,
    answer: async (_params, query, context) => {
      const classes = classesQueryOf(query);
      const result = await runClasses(context.engine, classes);
      const body = classesPage({ result, statuses: ENDED }, SERVER_LINKS);
      return { kind: 'page', parts: { title: 'classes', body, json: `/api${classesUrl(classes)}` } };
    },
  },
  {
    path: /^\/api\/classes$/,
    answer: async (_params, query, context) => ({
      kind: 'json',
      document: await runClasses(context.engine, classesQueryOf(query)),
    }),
  },
  {
    path: /^\/runs\/([^/]+)\/similar$/,
    answer: async ([id], query, context) => {
      const runId = runIdParam(id, 'a run id');
      const similar = similarQueryOf(query);
      const result = await similarRuns(context.engine, runId, similar);
      const body = similarPage(result, SERVER_LINKS);
      return {
        kind: 'page',
        parts: { title: `runs like ${runId}`, body, json: `/api${similarUrl(runId, similar)}` },
      };
    },
  },
  {
    path: /^\/api\/runs\/([^/]+)\/similar$/,
    answer: async ([id], query, context) => ({
      kind: 'json',
      document: await similarRuns(context.engine, runIdParam(id, 'a run id'), similarQueryOf(query)),
    }),
  },
];

function classesQueryOf(query: URLSearchParams): ClassesQuery {
  const since = periodParam(query, 'since');
  const status = choiceParam(query, 'status', ENDED);
  return { ...(since === undefined ? {} : { since }), ...(status === undefined ? {} : { status }) };
}

function similarQueryOf(query: URLSearchParams): SimilarQuery {
  const since = periodParam(query, 'since');
  return since === undefined ? {} : { since };
}
