import type { PendingApproval } from '../../engine/index.js';
import type { JsonObject } from '../../json/index.js';
import type { RunErrorRecord } from '../../store/index.js';
import type { RunStatus } from '../../vocabulary/index.js';
import type { Style, Summarizer } from '../../text/index.js';
import { pendingCallWords } from '../../text/index.js';

/** The part of a run its ending line reads. */
export interface Ending {
  readonly status: RunStatus;
  readonly outcome: JsonObject | null;
  readonly error: RunErrorRecord | null;
  readonly stepCount?: number;
  readonly steps?: readonly unknown[];
  /** The call a waiting run waits to have approved, where the reader has it (a read of one run does). */
  readonly pendingApproval?: PendingApproval | null;
}

/** How a run ended, in one line; its outcome in the words of its scenario's summarizer. */
export function formatEnding(run: Ending, style: Style, summarizer: Summarizer): string {
  switch (run.status) {
    case 'completed':
      return `${style.green('completed')}: ${summarizer.outcome(run.outcome)}`;
    case 'diverged':
      // The divergence itself is printed with the findings, diff included.
      return `${style.red('diverged')} at step ${run.error?.step ?? '?'} (${run.error?.code ?? 'REPLAY_DIVERGED'})`;
    case 'failed':
      return run.error === null
        ? style.red(run.status)
        : `${style.red(run.status)} at step ${run.error.step}: ${run.error.code}: ${run.error.message}`;
    case 'running':
      return style.yellow('running');
    case 'interrupted': {
      const pending = run.pendingApproval ?? null;
      const waiting = pending === null ? '' : `, before ${pendingCallWords(pending)}, which needs a person's approval`;
      return `${style.yellow('interrupted')}: the process recording it stopped after step ${run.stepCount ?? run.steps?.length ?? 0}${waiting}`;
    }
    case 'awaiting-approval': {
      const pending = run.pendingApproval ?? null;
      const call = pending === null ? 'a call' : pendingCallWords(pending);
      // A model step always asks first, so no step read means they are not shown (an expired run), not none.
      const count = run.stepCount ?? run.steps?.length ?? 0;
      return `${style.yellow('awaiting-approval')}: stopped at rest${count === 0 ? '' : ` after step ${count}`}, before ${call}, which needs a person's approval`;
    }
  }
}
