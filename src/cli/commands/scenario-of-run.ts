import { ForkpointError } from '../../errors/index.js';
import type { Scenario } from '../../scenario/index.js';
import { loadScenario, scenarioReference } from '../../scenario/index.js';
import type { Summarizer } from '../../text/index.js';
import { summarizerOf } from '../../text/index.js';

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
    throw new ForkpointError('USAGE', `run ${runId} does not say which scenario it came from; pass --scenario DIR`, {
      details: { runId },
    });
  }
  return { scenario: await loadScenario(directory), directory: scenarioReference(directory) };
}

/**
 * The scenario in `directory` if it loads, for nicer summaries; output falls
 * back to the generic summary without it, so a moved scenario never breaks `show`.
 */
export async function scenarioIfLoadable(directory: string | null): Promise<Scenario | undefined> {
  if (directory === null) return undefined;
  try {
    return await loadScenario(directory);
  } catch {
    return undefined;
  }
}

/** The summarizer of the scenario in `directory`, or the generic one when it does not load. */
export async function summarizerFor(directory: string | null): Promise<Summarizer> {
  return summarizerOf(await scenarioIfLoadable(directory));
}

/** A summarizer for each of several runs' scenarios (a lineage may hold runs of more than one), each loaded once. */
export async function summarizersFor(
  directories: readonly (string | null)[],
): Promise<(directory: string | null) => Summarizer> {
  const distinct = [...new Set(directories)];
  const loaded = new Map(
    await Promise.all(distinct.map(async (directory) => [directory, await summarizerFor(directory)] as const)),
  );
  const generic = summarizerOf();
  return (directory) => loaded.get(directory) ?? generic;
}
