import { describe, expect, it } from 'vitest';
import { ForkpointError, describeRemedy } from '../../src/errors/index.js';
import { EVERY_REMEDY } from '../support/every-remedy.js';
import { build, withIncident, worldAt } from '../support/incident.js';

describe('an error with a remedy', () => {
  it.each(EVERY_REMEDY)('says %j in the library’s terms, never a CLI flag', (remedy) => {
    const error = new ForkpointError('USAGE', 'it went wrong', { details: { remedy } });
    expect(error.problem).toBe('it went wrong');
    expect(error.message).toBe(`it went wrong${describeRemedy(remedy)}`);
    expect(describeRemedy(remedy)).not.toBe('');
    expect(error.message).not.toMatch(/--[a-z]|forkpoint [a-z]/);
  });

  it('reads as its problem alone without one, with empty details', () => {
    const error = new ForkpointError('USAGE', 'it went wrong');
    expect(error.message).toBe('it went wrong');
    expect(error.details).toEqual({});
  });

  it('reaches a library caller in its terms: a taken run id says runId, with the run in the details', async () => {
    const { engine } = await withIncident();
    const again = engine.record({
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      input: { claimId: 'CLM-91077' },
      runId: '9b40c1d5',
    });
    await expect(again).rejects.toMatchObject({
      code: 'RUN_EXISTS',
      message: expect.stringMatching(/^a run with id 9b40c1d5 already exists in .*; choose another `runId`$/),
      details: { runId: '9b40c1d5', remedy: { kind: 'choose-run-id' } },
    });
  });
});
