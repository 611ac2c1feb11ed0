import { describe, expect, it } from 'vitest';
import type { CountedRun } from '../../src/analysis/index.js';
import type { Divergence } from '../../src/vocabulary/index.js';
import { judgeVerification } from '../../src/analysis/index.js';

const failed: CountedRun = {
  status: 'failed',
  outcome: null,
  error: { code: 'VALIDATION_FAILED', message: 'negative', step: 9 },
};
const approve: CountedRun = { status: 'completed', outcome: { decision: 'approve' }, error: null };
const refer: CountedRun = { status: 'completed', outcome: { decision: 'refer' }, error: null };
const capped: CountedRun = {
  status: 'failed',
  outcome: null,
  error: { code: 'STEP_CAP_REACHED', message: 'cap', step: 24 },
};
const divergence = { message: 'model#0 (step 1): request hash x not in cassette' } as Divergence;
const judge = (
  candidate: CountedRun[],
  control: CountedRun[],
  candidateDivergence: Divergence | null = null,
  recording = failed,
) => judgeVerification({ recording, candidate, control, candidateDivergence });

describe('judgeVerification', () => {
  it('confirms a fix when the control still fails as recorded and the candidate does not', () => {
    expect(judge([refer], [failed]).verdict).toBe('fix-confirmed');
  });

  it('calls a vanished trajectory not-reproducible, even when the candidate is green', () => {
    expect(judge([approve, approve], [approve, approve])).toMatchObject({
      verdict: 'not-reproducible',
      reason: expect.stringMatching(/never exercised/),
    });
  });

  it('does not count a control that fails some other way as reproducing the failure', () => {
    expect(judge([refer], [capped]).verdict).toBe('not-reproducible');
  });

  it('calls it not-fixed when the candidate fails too', () => {
    expect(judge([failed], [failed]).verdict).toBe('not-fixed');
  });

  it('reports a candidate divergence before anything else', () => {
    expect(judge([refer], [failed], divergence)).toMatchObject({
      verdict: 'candidate-diverged',
      reason: expect.stringContaining('model#0 (step 1)'),
    });
  });

  it('calls mixed outcomes across repeats flaky, with the counts', () => {
    const result = judge([approve, approve, approve, refer, failed, approve], [failed, failed]);
    expect(result.verdict).toBe('flaky');
    expect(result.reason).toBe(
      'outcomes are mixed across repeats: candidate completed: approve 4/6, completed: refer 1/6, failed: VALIDATION_FAILED 1/6',
    );
    expect(judge([refer], [failed, approve]).verdict).toBe('flaky');
  });

  it('has nothing to confirm when the recording did not fail', () => {
    expect(judge([approve], [approve], null, approve)).toMatchObject({
      verdict: 'not-reproducible',
      reason: expect.stringMatching(/did not fail/),
    });
  });
});
