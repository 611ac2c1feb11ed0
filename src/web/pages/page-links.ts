import type { RunPageQuery } from '../../engine/index.js';
import type {
  ClassesQuery,
  SimilarQuery,
  StoredDivergenceQuery,
  StoredVerificationQuery,
} from '../../workflows/index.js';

/** The filters of the runs page: those of `forkpoint runs`. */
export type RunsFilter = RunPageQuery & { readonly scenario?: string; readonly until?: string };

/**
 * Where a page's links go. The server links pages to one another; a report
 * file links only within itself, so a link to a page it does not hold is
 * null and the page shows plain text instead.
 */
export interface PageLinks {
  /** The runs page with these filters. */
  runs(query?: RunsFilter): string | null;
  /** A run's page, opened at `step` when given. */
  run(runId: string, step?: number): string | null;
  /** A run's page at the page of its timeline that starts at step `from`. */
  timeline(runId: string, from: number): string | null;
  /** Two runs side by side. */
  compare(a: string, b: string): string | null;
  /**
   * The divergence report of the stored re-executions this query picks
   * (`divergence-report`'s flags); without one, the newest the store holds.
   */
  divergence(query?: StoredDivergenceQuery): string | null;
  /** The verification of a recording by the stored runs of two builds (`verify`'s arguments). */
  verify(query: StoredVerificationQuery): string | null;
  /** Every class of recorded runs in a period, by size (`classes`'s flags). */
  classes(query?: ClassesQuery): string | null;
  /** The recorded runs that share a run's failure signature (`similar`'s argument and flags). */
  similar(runId: string, query?: SimilarQuery): string | null;
  /** The JSON document a page is drawn from, at its documented URL; null where there is none. */
  json(path: string): string | null;
  /** The stylesheet and script every page loads, or null where they are inlined. */
  readonly assets: { readonly style: string; readonly script: string } | null;
}

const query = (fields: Record<string, string | number | undefined>): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
};

/** The divergence report page of the view for a query; `/api` before it is its JSON. */
export const divergenceUrl = (report?: StoredDivergenceQuery): string =>
  `/divergence${query({ at: report?.at, build: report?.build, runs: report?.runIds?.join(',') })}`;

/** The verify page of the view for a query; `/api` before it is its JSON. */
export const verifyUrl = (verification: StoredVerificationQuery): string =>
  `/verify${query({
    run: verification.runId,
    candidate: verification.candidate,
    baseline: verification.baseline,
    mode: verification.mode,
    at: verification.at,
  })}`;

/** The classes page of the view for a query; `/api` before it is its JSON. */
export const classesUrl = (classes: ClassesQuery = {}): string =>
  `/classes${query({ since: classes.since, status: classes.status })}`;

/** A run's similar page for a query; `/api` before it is its JSON. */
export const similarUrl = (runId: string, similar: SimilarQuery = {}): string =>
  `/runs/${encodeURIComponent(runId)}/similar${query({ since: similar.since })}`;

/** The links of `forkpoint ui`: every page and document at its URL (see the README's list). */
export const SERVER_LINKS: PageLinks = {
  runs: (filters = {}) =>
    `/runs${query({
      mode: filters.mode,
      status: filters.status,
      build: filters.build,
      scenario: filters.scenario,
      since: filters.since,
      until: filters.until,
      before: filters.before,
      limit: filters.limit,
    })}`,
  run: (runId, step) =>
    `/runs/${encodeURIComponent(runId)}${step === undefined ? '' : `${query({ step })}#step-${step}`}`,
  timeline: (runId, from) => `/runs/${encodeURIComponent(runId)}${query({ from })}`,
  compare: (a, b) => `/compare${query({ a, b })}`,
  divergence: (report) => divergenceUrl(report),
  verify: (verification) => verifyUrl(verification),
  classes: (classes) => classesUrl(classes),
  similar: (runId, similar) => similarUrl(runId, similar),
  json: (path) => path,
  assets: { style: '/assets/forkpoint.css', script: '/assets/forkpoint.js' },
};

/** The links of a report file: anchors to the runs and steps it holds, nothing else. */
export function reportLinks(runsHeld: ReadonlySet<string>, compareHeld: boolean): PageLinks {
  return {
    runs: () => null,
    run: (runId, step) =>
      runsHeld.has(runId) ? (step === undefined ? `#run-${runId}` : `#run-${runId}-step-${step}`) : null,
    timeline: () => null,
    compare: () => (compareHeld ? '#compare' : null),
    divergence: () => null,
    verify: () => null,
    classes: () => null,
    similar: () => null,
    json: () => null,
    assets: null,
  };
}
