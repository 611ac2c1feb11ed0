import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { memoryStore } from '../../src/store/index.js';
import { forkpointMatchers } from '../../src/testing/index.js';
import { useWrappedRuns } from '../wrap/support/wrapped-runs.js';

expect.extend(forkpointMatchers);

/** The message of the assertion error `assertion` throws; fails the test when it throws none. */
function failureOf(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    if (error instanceof Error) return error.message;
    throw error;
  }
  throw new Error('the assertion passed');
}

// A loop forkpoint does not drive, over the real Anthropic SDK: its recording (claim, OCR reading 205,
// estimate on 205, deny), the recording's strict replay, and a fork by prefix replay at the OCR (step 4)
// with the corrected total, after which the model estimates on 2050 and approves.
describe("the trajectory matchers on a wrapped loop's session results", () => {
  const engine = createEngine({ store: memoryStore() });
  const wrapped = useWrappedRuns(engine, { closeStore: true });

  it('read what session.close() gives: its calls, in order, with their inputs', () => {
    const { recorded, replayed } = wrapped.runs;
    for (const run of [recorded, replayed]) {
      expect(run).toHaveTrajectory(['fetch_claim', 'ocr_document', 'estimate_repair']);
      expect(run).toHaveCalledWith('estimate_repair', { invoiceTotal: 205 });
      expect(run).toHaveStepsAtMost(7);
    }
  });

  it("read a fork by prefix replay whole: the parent's calls before the fork, its own after", () => {
    const { forked } = wrapped.runs;
    expect(forked.mode).toBe('fork:prefix');
    expect(forked).toHaveTrajectory(['fetch_claim', 'ocr_document', 'estimate_repair']);
    expect(forked).toHaveCalledWith('estimate_repair', expect.objectContaining({ invoiceTotal: 2050 }));
    expect(forked).not.toHaveCalledWith('estimate_repair', expect.objectContaining({ invoiceTotal: 205 }));
  });

  it('fail naming the step, under the headline that says the loop is your own', () => {
    const message = failureOf(() => {
      expect(wrapped.runs.recorded).not.toHaveCalledWith('estimate_repair', { invoiceTotal: 205 });
    });
    expect(message).toMatch(
      /^step 6 estimate_repair#0 \(asked for by model#2 at step 5\) was called with \{"invoiceTotal": 205\}; expected no call with \{"invoiceTotal": 205\}\n\n/,
    );
    expect(message).toContain(`record · run ${wrapped.runs.recorded.runId} · claims-loop/`);
    expect(message).toContain('(your own loop)');
    expect(message).toMatch(/^> +6 {2}estimate_repair#0 +live /m);
  });
});
