import { describe, expect, it } from 'vitest';
import { isForkpointError } from '../../src/errors/index.js';
import { loadScenario } from '../../src/scenario/index.js';
import { cli } from '../support/cli-harness.js';

describe('loadScenario', () => {
  it('reports a scenario that throws as it loads with SCENARIO_LOAD_FAILED and its own message, not as a bug of forkpoint', async () => {
    let caught: unknown;
    try {
      await loadScenario('test/fixtures/scenarios/throws-on-import');
    } catch (error) {
      caught = error;
    }
    expect(isForkpointError(caught, 'SCENARIO_LOAD_FAILED')).toBe(true);
    expect((caught as Error).message).toMatch(
      /^the scenario in test\/fixtures\/scenarios\/throws-on-import failed to load \(.*index\.ts\): CLAIMS_API_URL is not set/,
    );
  });

  it('answers exit 2 on the command line, in one line', async () => {
    const result = await cli([
      'record',
      'test/fixtures/scenarios/throws-on-import',
      '--at',
      '2026-03-04',
      '--db',
      ':memory:',
    ]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(
      /^forkpoint: SCENARIO_LOAD_FAILED: the scenario in test\/fixtures\/scenarios\/throws-on-import failed to load [^\n]*CLAIMS_API_URL is not set[^\n]*\n$/,
    );
  });
});
