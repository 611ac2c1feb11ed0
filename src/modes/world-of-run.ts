import { ForkpointError } from '../errors/index.js';
import type { RunRecord } from '../store/index.js';
import type { World } from '../world/index.js';

/**
 * Checks that a world a run continues in is the one it met: where both the
 * run and the world state a date or a seed, they must agree, or the run's
 * record would describe a world its later steps never met. A world that
 * states neither (a real provider's, today's) is taken as it is. `RESUME_REFUSED` otherwise.
 */
export function requireSameWorld(run: RunRecord, world: World): void {
  const differs = [
    world.worldAt !== undefined && run.worldAt !== null && world.worldAt !== run.worldAt
      ? `date ${world.worldAt}`
      : null,
    world.seed !== undefined && run.seed !== null && world.seed !== run.seed ? `seed ${world.seed}` : null,
  ].filter((part) => part !== null);
  if (differs.length === 0) return;
  throw new ForkpointError(
    'RESUME_REFUSED',
    `run ${run.runId} cannot be resumed in this world: it met the world of ${run.worldAt ?? 'an unstated date'} with seed ${run.seed ?? 'unstated'}; this world has ${differs.join(' and ')}. A resume continues in the run's own world: open it as the run's, or fork the run to meet another`,
    { details: { runId: run.runId, field: differs[0]?.startsWith('date') === true ? 'world.worldAt' : 'world.seed' } },
  );
}
