import { createEngine } from '../../engine/index.js';
import { isForkpointError } from '../../errors/index.js';
import { buildOf } from '../../scenario/index.js';
import { sqliteStore } from '../../store/index.js';
import { cliMessage } from '../flag-hints.js';
import { formatRunBrief } from '../output/format-run.js';
import { formatTierSizes } from '../output/format-tiers.js';
import type { Telling } from './demo-telling.js';
import { incidentRecording } from './demo-telling.js';

/**
 * The retention chapter: 73 hours after the incident, `gc` removes its full
 * tier, a full replay is refused with `CASSETTE_EXPIRED`, and the structural
 * tier still replays. Told on a scratch in-memory database holding a second
 * recording of the incident (same seed, same trajectory), so that the story
 * can be told again on the real one.
 */
export async function tellRetention(telling: Telling): Promise<void> {
  const { cli, scenario, story, summarizer } = telling;
  const { incident } = story;
  cli.print(formatTierSizes(await telling.engine.tierSizes(incident.runId)));
  const recordedAt = new Date(incident.recordedAt);
  let now = recordedAt;
  const scratch = createEngine({ store: sqliteStore({ path: ':memory:' }), clock: () => now });
  try {
    await scratch.record(incidentRecording(telling));
    now = new Date(recordedAt.getTime() + 73 * 3_600_000);
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
      cli.print(`replay ${incident.runId}: ${error.code}: ${cliMessage(error)}`);
    }
    for (const build of [incident.build, story.volatile]) {
      const structural = await scratch.replay({
        agent: buildOf(scenario, build),
        cassette: await scratch.cassette(incident.runId, 'structural'),
        mode: 'structural',
        scenario: telling.directory,
      });
      cli.print(formatRunBrief(structural, cli.style, summarizer));
    }
  } finally {
    await scratch.store.close();
  }
  cli.print(story.text.shapesReplayed);
}
