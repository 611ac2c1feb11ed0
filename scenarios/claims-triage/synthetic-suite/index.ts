import type { SyntheticCase, SyntheticSupport } from '../../../src/index.js';
import { caseReader } from './case-reader.js';
import { readExpectation } from './expectation.js';
import { readCase } from './read-case.js';
import { scoreRun } from './score.js';
import { openSyntheticWorld } from './synthetic-world.js';

/**
 * The synthetic claims suite of claims-triage: hand-written claims in
 * `scenarios/claims-triage/synthetic/*.json`, each run in a world of its own
 * and scored against the decision (or failure) it must reach.
 */
export const claimsSynthetic: SyntheticSupport = {
  parseCase(value, file): SyntheticCase {
    const parsed = readCase(value, file);
    return {
      id: parsed.id,
      file,
      narrative: parsed.narrative,
      paths: parsed.paths,
      at: parsed.at,
      input: { claimId: parsed.world.claim.claimId },
      expected: parsed.expected,
      data: parsed.data,
    };
  },
  // The world and the expectation are read again from the case as written: it is all a SyntheticCase carries.
  openWorld: (testCase, options) => openSyntheticWorld(readCase(testCase.data, testCase.file).world, options),
  score: (testCase, result) => scoreRun(readExpectation(caseReader(testCase.file), testCase.expected), result),
};

export { CASE_PATHS, type CasePath } from './case-paths.js';
export { readCase, type ClaimsCase } from './read-case.js';
