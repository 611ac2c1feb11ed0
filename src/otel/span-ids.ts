import { createHash } from 'node:crypto';

// Ids are digests of what names the span, so that exporting a run again gives the same ids, and a fork's or
// a replay's link to its source run can be made without exporting the source at the same time.

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

// An all-zero id is invalid in OTLP: a digest that begins with 16 or 32 zero hex characters is taken one
// character further on (a chance of 2^-64 at worst, but an id must never be invalid).
function nonZero(hex: string, length: number): string {
  for (let start = 0; start + length <= hex.length; start += 1) {
    const id = hex.slice(start, start + length);
    if (/[^0]/.test(id)) return id;
  }
  throw new Error('a sha256 digest is never all zeros');
}

/** The trace id of a run's export: 32 hex characters derived from its run id alone. */
export function traceIdOf(runId: string): string {
  return nonZero(digest(`forkpoint trace ${runId}`), 32);
}

/**
 * The span id of a run's span: step 0 is the run's agent span, step N the span
 * of its step N. 16 hex characters derived from the run id and the step.
 */
export function spanIdOf(runId: string, step: number): string {
  return nonZero(digest(`forkpoint span ${runId} ${step}`), 16);
}
