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
  // Only where both say it: an unstated date or seed on either side is no disagreement.
  const differs = (['worldAt', 'seed'] as const).filter(
    (fact) => world[fact] !== undefined && run[fact] !== null && world[fact] !== run[fact],
  );
  const [first] = differs;
  if (first === undefined) return;
  const said = differs.map((fact) => (fact === 'worldAt' ? `date ${world.worldAt}` : `seed ${world.seed}`));
  throw new ForkpointError(
    'RESUME_REFUSED',
    `run ${run.runId} cannot be resumed in this world: it met the world of ${run.worldAt ?? 'an unstated date'} with seed ${run.seed ?? 'unstated'}; this world has ${said.join(' and ')}. A resume continues in the run's own world: open it as the run's, or fork the run to meet another`,
    { details: { runId: run.runId, field: `world.${first}` } },
  );
}
