import type { EngineDeps } from '../driver/index.js';
import { ownerCheck } from '../driver/index.js';
import type { RunView, StepView } from '../read/index.js';
import { readStepViews, summarizeRun } from '../read/index.js';
import type { RunRecord } from '../store/index.js';

/**
 * The view of a run that continued from a checkpoint (a fork, a resume): the
 * steps before `fromStep` read from the rows that hold them (a fork's are its
 * parent's, `inherited`), then the steps this call made, as it made them.
 */
export async function withSteps(
  deps: EngineDeps,
  stored: RunRecord,
  own: readonly StepView[],
  fromStep: number,
): Promise<RunView> {
  const before = await readStepViews(deps.store, stored.runId, { known: stored, through: fromStep - 1 });
  const { stepCount: _stepCount, ...summary } = summarizeRun(stored, ownerCheck(deps));
  return { ...summary, steps: [...before, ...own] };
}
