import { isDeepStrictEqual } from 'node:util';
import { Command } from '@commander-js/extra-typings';
import type { RunView } from '../../engine/index.js';
import { ForkpointError, isForkpointError } from '../../errors/index.js';
import { parseSideEffectOption } from '../../firewall/index.js';
import { loadScenario } from '../../scenario/index.js';
import { BUILT_IN_SCENARIOS } from '../built-in-scenarios.js';
import { DEFAULT_UI_PORT } from '../../web/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { cliMessage } from '../flag-hints.js';
import { withCommonOptions } from '../options/common-options.js';
import { formatRun } from '../output/format-run.js';
import { summarizerOf } from '../../text/index.js';
import { tellRetention } from './demo-retention.js';
import { tellSynthetic } from './demo-synthetic.js';
import type { Telling } from './demo-telling.js';
import { PeriodClock } from './batch-period.js';
import { tellApproval } from './demo-approval.js';
import { tellClasses } from './demo-classes.js';
import { chapter, incidentRecording, tellFork, tellReexecution, tellReplays, tellVolatile } from './demo-telling.js';

const SCENARIO_DIR = BUILT_IN_SCENARIOS[0];

/**
 * `forkpoint demo` (what `npm start` runs): the built-in scenario's incident
 * story, told step by step on the default database, each step labelled with
 * its mode. The scenario supplies the story (its data and its words); the
 * demo runs its chapters.
 */
export function demoCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('demo')
      .description(`tell the incident story of ${SCENARIO_DIR} on the default database`)
      .usage('[--db PATH]'),
  ).action(async (options) => {
    if (options.json === true)
      throw new ForkpointError('USAGE', 'demo tells a story for people; use the other commands for --json');
    const scenario = await loadScenario(SCENARIO_DIR);
    const { story } = scenario;
    if (story === undefined)
      throw new ForkpointError('USAGE', `scenario ${scenario.name} in ${SCENARIO_DIR} has no story to tell`);
    await withStore(await cli.openStore(options), async (store) => {
      const telling: Telling = {
        cli,
        engine: cli.engine(options, store),
        scenario,
        directory: SCENARIO_DIR,
        story,
        summarizer: summarizerOf(scenario),
        sideEffects: parseSideEffectOption(story.sideEffects),
      };
      const { text } = story;
      chapter(cli, 1, text.chapters.record);
      const incident = await recordIncident(telling);
      cli.print(formatRun(incident, cli.style, telling.summarizer));
      cli.print(text.traceFailure(incident.error?.step));
      await tellReexecution(telling, 2);
      const cassette = await tellReplays(telling, 3);
      await tellFork(telling, 4, incident);
      await tellVolatile(telling, 5, cassette);
      chapter(
        cli,
        6,
        'Retention: 73 hours later the full tier is gone; the structural tier (shapes only, kept 90 days) still replays.',
      );
      await tellRetention(telling);
      chapter(cli, 7, text.chapters.synthetic);
      await tellSynthetic(telling);
      // The chapters a scenario may leave out are numbered on from 8, as many as it has.
      let next = 8;
      if (story.period !== undefined) {
        chapter(
          cli,
          next++,
          `One run or a class of runs? Every claim on every day from ${story.period.from} to ${story.period.until}, with the ${story.incident.build} build.`,
        );
        const clock = new PeriodClock();
        await tellClasses(telling, story.period, cli.engine(options, store, clock.read), clock);
      }
      if (story.approval !== undefined) await tellApproval(telling, next, story.approval);
      cli.print(
        `\nEvery run of this story is in ${store.location}: \`npx forkpoint tree ${incident.runId}\` shows them under the incident,`,
      );
      cli.print(
        '`npx forkpoint show <run-id>` shows one (a checkpoint with --step K), `npx forkpoint compare <a> <b>` sets two side by side.',
      );
      cli.print(
        `\`npx forkpoint ui\` shows them in a browser (the incident at http://127.0.0.1:${DEFAULT_UI_PORT}/runs/${incident.runId}), and \`npx forkpoint report ${incident.runId} --compare <fork>\` writes one HTML file to attach to a ticket.`,
      );
    });
    cli.exit(EXIT.ok);
  });
}

// The story always starts from the same run id; a database that already holds it keeps it. A story's world is
// made up, so the incident is recorded in the synthetic tier: it never expires, and the story can be told again
// any day (the retention chapter shows what happens to a full-tier recording, on a scratch copy).
async function recordIncident(telling: Telling): Promise<RunView> {
  const { engine, story, cli } = telling;
  const { incident } = story;
  const location = engine.store.location;
  const existing = (await engine.listRuns()).find((run) => run.runId === incident.runId);
  if (existing !== undefined) {
    if (
      existing.mode !== 'record' ||
      !isDeepStrictEqual(existing.input, incident.input) ||
      existing.worldAt !== incident.at
    ) {
      throw new ForkpointError(
        'RUN_EXISTS',
        `run ${incident.runId} in ${location} is not the incident recording; run the demo with --db on another file`,
        { details: { runId: incident.runId, path: location } },
      );
    }
    try {
      await engine.cassette(incident.runId);
    } catch (error) {
      if (!isForkpointError(error, 'CASSETTE_EXPIRED')) throw error;
      throw new ForkpointError(
        'CASSETTE_EXPIRED',
        `${cliMessage(error)}. The story needs it: delete ${location} or run the demo with --db on another file`,
        { details: { runId: incident.runId, path: location } },
      );
    }
    cli.note(`(run ${incident.runId} is already recorded in ${location}; showing it)`);
    return await engine.getRun(incident.runId);
  }
  return await engine.record({ ...incidentRecording(telling), tier: 'synthetic' });
}
