import { ANALYSIS_ROUTES } from './analysis-routes.js';
import type { Route } from './route-answer.js';
import { RUN_ROUTES } from './run-routes.js';
import { RUNS_ROUTES } from './runs-routes.js';
import { SIGNATURE_ROUTES } from './signature-routes.js';

/** Every page and document the view answers, in the order they are matched (the README lists their URLs). */
export const ROUTES: readonly Route[] = [...RUNS_ROUTES, ...RUN_ROUTES, ...SIGNATURE_ROUTES, ...ANALYSIS_ROUTES];
