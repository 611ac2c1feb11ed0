import type { Engine } from '../../engine/index.js';
import type { StoryPeriod } from '../../scenario/index.js';
import { buildOf, scenarioReference } from '../../scenario/index.js';
import { runClasses, similarRuns } from '../../workflows/index.js';
import { formatClasses, formatSimilar } from '../output/format-classes.js';
import type { PeriodClock } from './batch-period.js';
import { batchDays } from './batch-period.js';
import type { Telling } from './demo-telling.js';

/**
 * The classes chapter: every input of the scenario recorded on every day of
 * the period (each day's runs made on that day, as `record-batch --until`
 * makes them), then the period's failed classes, and the incident's class
 * among them. A store that holds the period's runs already is counted as it
 * is, so that telling the story twice does not record them twice.
 *
 * @param recorder an engine over the demo's store whose clock is `clock`
 */
export async function tellClasses(
  telling: Telling,
  period: StoryPeriod,
  recorder: Engine,
  clock: PeriodClock,
): Promise<void> {
  const { cli, engine, scenario, story } = telling;
  const since = `${period.from}T00:00:00.000Z`;
  const until = new Date(Date.parse(`${period.until}T00:00:00.000Z`) + 86_400_000).toISOString();
  // As `runs`, `similar` and `classes` take it: the runs made before the day after the period's last.
  const dayAfter = until.slice(0, 10);
  const already = (await engine.store.listSignedRuns({ since, until })).filter(
    (run) => run.mode === 'record' && run.runId !== story.incident.runId,
  );
  if (already.length > 0) {
    cli.note(`(the period's ${already.length} runs are already recorded in ${engine.store.location}; counting them)`);
  } else {
    const inputs = scenario.allInputs?.() ?? [];
    const agent = buildOf(scenario, story.incident.build);
    for (const day of batchDays(period.from, period.until)) {
      for (const [position, input] of inputs.entries()) {
        clock.at(day, position, inputs.length);
        // A story's world is made up: its runs are synthetic, and never expire.
        await recorder.record({
          agent,
          world: cli.openWorld(scenario, { at: day, seed: cli.seed(undefined), latencyMs: 0 }),
          input,
          scenario: scenarioReference(telling.directory),
          tier: 'synthetic',
        });
      }
    }
  }
  cli.print(
    `\`npx forkpoint record-batch ${telling.directory} --claims ALL --at ${period.from} --until ${period.until}\` recorded every claim on every day; \`npx forkpoint classes --since ${period.from} --until ${dayAfter} --status failed\`:`,
  );
  const classes = await runClasses(engine, { since, until, status: 'failed' });
  cli.print(formatClasses(classes, cli.style).join('\n'));
  const like = await similarRuns(engine, story.incident.runId, { since, until });
  cli.print(`\`npx forkpoint similar ${story.incident.runId} --since ${period.from} --until ${dayAfter}\`:`);
  cli.print(formatSimilar(like, cli.style).join('\n'));
  const oneOffs = classes.classes.filter((kind) => kind.runs === 1);
  cli.print(
    `The incident is not alone: ${like.same.runs} of the ${like.recorded} runs recorded in the period share its signature, all after ${like.words.lead ?? 'the same path'}; ${oneOffs.length} failures of the period are one-offs (${oneOffs.map((kind) => kind.words.ending.replace(/^failed /, '')).join(', ')}).`,
  );
}
