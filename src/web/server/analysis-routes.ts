import { ForkpointError } from '../../errors/index.js';
import type { StoredDivergenceQuery, StoredVerificationQuery } from '../../workflows/index.js';
import {
  storedDivergenceReport,
  storedDivergenceReports,
  storedVerification,
  storedVerifications,
} from '../../workflows/index.js';
import { divergencePage } from '../pages/divergence-page.js';
import { SERVER_LINKS, divergenceUrl, verifyUrl } from '../pages/page-links.js';
import { verifyPage } from '../pages/verify-page.js';
import type { Route } from './route-answer.js';
import type { ViewContext } from './view-context.js';
import { choiceParam, runIdParam, textParam } from './query-params.js';

const MODES = ['replay', 'reexecution'] as const;

/**
 * The divergence report and verify results, read from the runs those
 * commands stored (nothing is run), and their JSON: `divergence-report --json`
 * and `verify --json`. Without a date (`/divergence`) or builds
 * (`/verify?run=ID`), each goes to the first report or verification the store holds.
 */
export const ANALYSIS_ROUTES: readonly Route[] = [
  {
    path: /^\/divergence$/,
    answer: async (_params, query, context) => {
      const report = divergenceQueryOf(query);
      if (report === undefined) return { kind: 'redirect', location: await firstReport(context) };
      const document = await storedDivergenceReport(context.engine, report);
      const body = divergencePage(
        { report: document, reports: await storedDivergenceReports(context.engine) },
        SERVER_LINKS,
      );
      const title = `divergence report, the world of ${report.at}`;
      return { kind: 'page', parts: { title, body, json: `/api${divergenceUrl(report)}` } };
    },
  },
  {
    path: /^\/api\/divergence$/,
    answer: async (_params, query, context) => {
      const report = divergenceQueryOf(query);
      if (report === undefined)
        throw new ForkpointError(
          'USAGE',
          "the report needs at, the world's date its re-executions ran against (YYYY-MM-DD)",
        );
      return { kind: 'json', document: await storedDivergenceReport(context.engine, report) };
    },
  },
  {
    path: /^\/verify$/,
    answer: async (_params, query, context) => {
      const verification = verifyQueryOf(query);
      if (!('candidate' in verification))
        return { kind: 'redirect', location: await firstVerification(context, verification) };
      const result = await storedVerification(context.engine, verification);
      const { scenario } = await context.engine.getRunSummary(verification.runId);
      const data = { result, scenario, verifications: await storedVerifications(context.engine, verification.runId) };
      const body = verifyPage(data, SERVER_LINKS, await context.words([scenario]));
      const title = `verify ${verification.runId}: ${verification.candidate} against ${verification.baseline}`;
      return { kind: 'page', parts: { title, body, json: `/api${verifyUrl(verification)}` } };
    },
  },
  {
    path: /^\/api\/verify$/,
    answer: async (_params, query, context) => {
      const verification = verifyQueryOf(query);
      if (!('candidate' in verification))
        throw new ForkpointError('USAGE', 'a verification needs candidate and baseline, the builds of its two arms');
      return { kind: 'json', document: await storedVerification(context.engine, verification) };
    },
  },
];

function divergenceQueryOf(query: URLSearchParams): StoredDivergenceQuery | undefined {
  const at = textParam(query, 'at');
  if (at === undefined) return undefined;
  const build = textParam(query, 'build');
  const runs = textParam(query, 'runs')
    ?.split(',')
    .map((runId) => runId.trim())
    .filter((runId) => runId !== '')
    .map((runId) => runIdParam(runId, 'runs, run ids'));
  return { at, ...(build === undefined ? {} : { build }), ...(runs === undefined ? {} : { runIds: runs }) };
}

type PartialVerification = Pick<StoredVerificationQuery, 'runId'> & Partial<Pick<StoredVerificationQuery, 'mode'>>;

function verifyQueryOf(query: URLSearchParams): StoredVerificationQuery | PartialVerification {
  const runId = runIdParam(textParam(query, 'run'), 'run, the recording');
  const mode = choiceParam(query, 'mode', MODES);
  const candidate = textParam(query, 'candidate');
  const baseline = textParam(query, 'baseline');
  const at = textParam(query, 'at');
  if (candidate === undefined && baseline === undefined) return { runId, ...(mode === undefined ? {} : { mode }) };
  if (candidate === undefined || baseline === undefined)
    throw new ForkpointError('USAGE', 'a verification needs both candidate and baseline, the builds of its two arms');
  return { runId, candidate, baseline, mode: mode ?? 'replay', ...(at === undefined ? {} : { at }) };
}

// The newest world's date, each run with its own build: what `divergence-report --all-recorded --at` printed last.
async function firstReport(context: ViewContext): Promise<string> {
  const refs = await storedDivergenceReports(context.engine);
  const newest = refs.filter((ref) => ref.build === null).at(-1) ?? refs.at(-1);
  if (newest === undefined)
    throw new ForkpointError(
      'RUN_NOT_FOUND',
      'no re-execution of a recorded run is stored: make some with `forkpoint divergence-report --all-recorded --at DATE`',
    );
  return divergenceUrl({ at: newest.at, ...(newest.build === null ? {} : { build: newest.build }) });
}

async function firstVerification(context: ViewContext, query: PartialVerification): Promise<string> {
  const refs = await storedVerifications(context.engine, query.runId);
  const first = refs.find((ref) => query.mode === undefined || ref.mode === query.mode);
  if (first === undefined)
    throw new ForkpointError(
      'RUN_NOT_FOUND',
      `run ${query.runId} has no stored verification${query.mode === undefined ? '' : ` by ${query.mode}`}: make one with \`forkpoint verify ${query.runId} --candidate BUILD --baseline BUILD\``,
    );
  const { runId, candidate, baseline, mode, at } = first;
  return verifyUrl({ runId, candidate, baseline, mode, ...(at === null ? {} : { at }) });
}
