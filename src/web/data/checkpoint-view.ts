import type { Engine } from '../../engine/index.js';
import { isForkpointError } from '../../errors/index.js';
import type { CheckpointView } from '../pages/step-detail.js';

/**
 * The checkpoint after a step as a page shows it, or why there is none to
 * show: the run's full tier expired, perhaps between the read of its steps
 * and this one. The caller has checked the step is the run's.
 */
export async function checkpointViewOf(engine: Engine, runId: string, step: number): Promise<CheckpointView> {
  try {
    const checkpoint = await engine.checkpoint(runId, step);
    return { kind: 'state', state: checkpoint.value, context: checkpoint.context };
  } catch (error) {
    if (!isForkpointError(error, 'CASSETTE_EXPIRED')) throw error;
    return { kind: 'missing', reason: `expired: ${error.message}` };
  }
}
