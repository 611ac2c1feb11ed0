import type { Engine } from '../../engine/index.js';
import { isForkpointError } from '../../errors/index.js';
import { pendingApprovalOf, requireRun } from '../../read/index.js';
import type { CommandContext } from '../command-context.js';
import { formatPendingApproval } from '../output/format-pending-approval.js';

/**
 * Prints the call a run waits on and how to answer it, when the run waits for
 * a person's approval: the request hash `approve --call` takes is nowhere
 * else in the human output. Prints nothing for any other run.
 */
export async function printPendingApproval(cli: CommandContext, engine: Engine, runId: string): Promise<void> {
  const run = await requireRun(engine.store, runId);
  if (run.status !== 'awaiting-approval') return;
  try {
    const pending = await pendingApprovalOf(engine.store, run);
    if (pending !== undefined) cli.print(formatPendingApproval(runId, pending, cli.style));
  } catch (error) {
    // Its full tier is gone: the call can no longer be read, and nobody can answer it (approve says so).
    if (!isForkpointError(error, 'CASSETTE_EXPIRED')) throw error;
  }
}
