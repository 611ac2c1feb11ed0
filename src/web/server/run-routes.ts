import { ForkpointError } from '../../errors/index.js';
import {
  checkpointDocument,
  checkpointViewOf,
  compareDocument,
  runDocument,
  stepSummaryIn,
  treeDocument,
} from '../data/index.js';
import { comparePage } from '../pages/compare-page.js';
import { SERVER_LINKS } from '../pages/page-links.js';
import { runPage } from '../pages/run-page.js';
import { timelineWindow } from '../pages/run-timeline.js';
import type { CheckpointView } from '../pages/step-detail.js';
import type { Route } from './route-answer.js';
import { integerParam, runIdParam } from './query-params.js';

const MAX_STEP = Number.MAX_SAFE_INTEGER;

/** A run's page, its JSON (`show --json`), its lineage (`tree --json`) and a checkpoint (`show --step K --json`). */
export const RUN_ROUTES: readonly Route[] = [
  {
    path: /^\/runs\/([^/]+)$/,
    answer: async ([id], query, context) => {
      const runId = runIdParam(id, 'a run id');
      const step = integerParam(query, 'step', 1, MAX_STEP);
      const from = integerParam(query, 'from', 1, MAX_STEP);
      const run = await context.engine.getRun(runId);
      if (step !== undefined && step > run.steps.length && !run.retention.expired)
        throw new ForkpointError(
          'STEP_OUT_OF_RANGE',
          `run ${runId} has steps 1 to ${run.steps.length}; there is no step ${step}`,
        );
      const lineage = await context.engine.lineage(runId);
      const window = timelineWindow(run.steps.length, {
        ...(step === undefined ? {} : { step }),
        ...(from === undefined ? {} : { from }),
      });
      const opened = new Map<number, CheckpointView>();
      if (step !== undefined && !run.retention.expired)
        opened.set(step, await checkpointViewOf(context.engine, runId, step));
      // A run gets its signature when it ends (and not at all before forkpoint made them): only then is it in a class.
      const signed = ((await context.engine.store.getRun(runId))?.signature ?? null) !== null;
      const scenarios = [run.scenario, ...lineage.ancestors.map((each) => each.scenario)];
      const body = runPage(
        { run, tiers: null, lineage, ...window, opened, place: 'server', signed },
        SERVER_LINKS,
        await context.words(scenarios),
      );
      return { kind: 'page', parts: { title: `run ${runId} (${run.mode})`, body, json: `/api/runs/${runId}` } };
    },
  },
  {
    path: /^\/api\/runs\/([^/]+)$/,
    answer: async ([id], _query, context) => ({
      kind: 'json',
      document: await runDocument(context.engine, runIdParam(id, 'a run id')),
    }),
  },
  {
    path: /^\/api\/runs\/([^/]+)\/tree$/,
    answer: async ([id], _query, context) => ({
      kind: 'json',
      document: await treeDocument(context.engine, runIdParam(id, 'a run id')),
    }),
  },
  {
    path: /^\/api\/runs\/([^/]+)\/checkpoints\/(\d+)$/,
    answer: async ([id, step], _query, context) => ({
      kind: 'json',
      document: await checkpointDocument(context.engine, runIdParam(id, 'a run id'), Number(step)),
    }),
  },
  {
    path: /^\/compare$/,
    answer: async (_params, query, context) => {
      const [a, b] = pairOf(query);
      let scenario: string | null = null;
      const comparison = await compareDocument(context.engine, a, b, async (of) => {
        scenario = of;
        return await stepSummaryIn(context.words)(of);
      });
      const body = comparePage({ comparison, scenario }, SERVER_LINKS, await context.words([scenario]));
      return { kind: 'page', parts: { title: `compare ${a} vs ${b}`, body, json: `/api/compare?a=${a}&b=${b}` } };
    },
  },
  {
    path: /^\/api\/compare$/,
    answer: async (_params, query, context) => {
      const [a, b] = pairOf(query);
      return { kind: 'json', document: await compareDocument(context.engine, a, b, stepSummaryIn(context.words)) };
    },
  },
];

function pairOf(query: URLSearchParams): [string, string] {
  return [
    runIdParam(query.get('a') ?? undefined, 'a (the first run)'),
    runIdParam(query.get('b') ?? undefined, 'b (the run beside it)'),
  ];
}
