import { ForkpointError } from '../../errors/index.js';
import type { Scenario } from '../../scenario/index.js';
import { loadScenario, scenarioReference } from '../../scenario/index.js';

/**
 * The scenario a command works with: `--scenario DIR` when given, else the one
 * the run was recorded from.
 */
export async function scenarioFor(
  explicit: string | undefined,
  recorded: string | null,
  runId: string,
): Promise<{ scenario: Scenario; directory: string }> {
  const directory = explicit ?? recorded;
  if (directory === null) {
    throw new ForkpointError('USAGE', `run ${runId} does not say which scenario it came from; pass --scenario DIR`);
  }
  return { scenario: await loadScenario(directory), directory: scenarioReference(directory) };
}

/**
 * The scenario in `directory` if it loads, for nicer summaries; output falls
 * back to plain JSON without it, so a moved scenario never breaks `show`.
 */
export async function scenarioIfLoadable(directory: string | null): Promise<Scenario | undefined> {
  if (directory === null) return undefined;
  try {
    return await loadScenario(directory);
  } catch {
    return undefined;
  }
}
