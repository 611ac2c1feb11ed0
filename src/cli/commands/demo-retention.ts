import type { Engine } from '../../engine/index.js';
import { createEngine } from '../../engine/index.js';
import { isForkpointError } from '../../errors/index.js';
import type { Scenario } from '../../scenario/index.js';
import { buildOf } from '../../scenario/index.js';
import { sqliteStore } from '../../store/index.js';
import type { CommandContext } from '../command.js';
import { formatRunBrief } from '../output/format-run.js';
import { formatTierSizes } from '../output/format-tiers.js';

/** What the retention chapter needs to re-record the incident on a scratch database. */
export interface RetentionChapter {
  readonly scenario: Scenario;
  readonly scenarioDir: string;
  readonly incident: {
    readonly runId: string;
    readonly claimId: string;
    readonly at: string;
    readonly build: string;
    readonly seed: number;
  };
  /** When the incident was recorded. */
  readonly recordedAt: Date;
}

/**
 * The retention chapter: 73 hours after the incident, `gc` removes its full
 * tier, a full replay is refused with `CASSETTE_EXPIRED`, and the structural
 * tier still replays. Told on a scratch in-memory database holding a second
 * recording of the incident (same seed, same trajectory), so that the story
 * can be told again on the real one.
 */
export async function tellRetention(cli: CommandContext, chapter: RetentionChapter, sizesOn: Engine): Promise<void> {
  const { scenario, incident } = chapter;
  cli.print(formatTierSizes(await sizesOn.tierSizes(incident.runId)));
  let now = chapter.recordedAt;
  const scratch = createEngine({ store: sqliteStore({ path: ':memory:' }), clock: () => now });
  try {
    await scratch.record({
      agent: buildOf(scenario, incident.build),
      world: (seed) => scenario.openWorld({ at: incident.at, seed, latencyMs: 0 }),
      input: { claimId: incident.claimId },
      at: incident.at,
      scenario: chapter.scenarioDir,
      seed: incident.seed,
      runId: incident.runId,
    });
    now = new Date(chapter.recordedAt.getTime() + 73 * 3_600_000);
    const report = await scratch.gc();
    for (const run of report.purged) {
      cli.print(
        `gc --now ${now.toISOString()}: removed the full tier of ${run.runId} (expired ${run.expiredAt}), ${run.steps} steps; structural tier kept until ${run.structuralUntil ?? '-'}`,
      );
    }
    try {
      await scratch.cassette(incident.runId);
    } catch (error) {
      if (!isForkpointError(error, 'CASSETTE_EXPIRED')) throw error;
      cli.print(`replay ${incident.runId}: ${error.code}: ${error.message}`);
    }
    const structural = await scratch.replay({
      agent: buildOf(scenario, 'baseline'),
      cassette: await scratch.cassette(incident.runId, 'structural'),
      mode: 'structural',
      scenario: chapter.scenarioDir,
    });
    cli.print(formatRunBrief(structural, cli.style));
    const stamped = await scratch.replay({
      agent: buildOf(scenario, 'timestamped'),
      cassette: await scratch.cassette(incident.runId, 'structural'),
      mode: 'structural',
      scenario: chapter.scenarioDir,
    });
    cli.print(formatRunBrief(stamped, cli.style));
  } finally {
    await scratch.store.close();
  }
  cli.print(
    'The shape still checks the harness: baseline follows the recorded trajectory, and the timestamped prompt is caught without a single payload kept.',
  );
}
