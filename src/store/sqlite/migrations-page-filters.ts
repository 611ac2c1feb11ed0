import type { Migration } from './migration.js';

/** Migration 11: an index for each filter of a page of runs that matches a value. */
export const PAGE_FILTERS: readonly Migration[] = [
  {
    version: 11,
    name: 'indexes for filtered pages of runs',
    // A filtered page walked runs_by_created_at newest first and read every run it passed, so a filter that
    // few runs match read most of the file: 21 ms at 100k runs for a scenario no run has, growing with the
    // store. Each filter that matches a value (mode, status, build, scenario) now has an index of its own,
    // in the order of the listing (created_at, then the rowid, run_key, that every index ends with), so that
    // a page filtered by one reads its own runs, a range of since, until or the cursor inside it. A page
    // filtered by several walks the index of the one that matches fewest runs and checks the others (see
    // run-page-query.ts). Each costs a new run one index entry, and a run's status entry moves when it ends;
    // building the four took 0.65 s at 100k runs here.
    sql: `
      CREATE INDEX runs_by_mode ON runs (mode, created_at);
      CREATE INDEX runs_by_status ON runs (status, created_at);
      CREATE INDEX runs_by_build ON runs (build, created_at);
      CREATE INDEX runs_by_scenario ON runs (scenario, created_at);
    `,
  },
];
