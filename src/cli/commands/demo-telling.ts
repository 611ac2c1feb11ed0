import { compareRuns } from '../../analysis/index.js';
import type { Cassette } from '../../cassette/index.js';
import type { Engine, RecordOptions, RunView } from '../../engine/index.js';
import { lintFirstRequest, probeDrift } from '../../workflows/index.js';
import type { SideEffectOption } from '../../firewall/index.js';
import { parseForkOverride } from '../../fork/index.js';
import type { Scenario, ScenarioStory } from '../../scenario/index.js';
import { buildOf } from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { formatRun, formatRunBrief } from '../output/format-run.js';
import type { Summarizer } from '../../text/index.js';
import { formatDrift } from './drift.js';
import { formatLint } from './lint.js';

/** What every chapter of the demo tells with: the engine, the scenario and its story. */
export interface Telling {
  readonly cli: CommandContext;
  readonly engine: Engine;
  readonly scenario: Scenario;
  /** The scenario's directory, as runs store it. */
  readonly directory: string;
  readonly story: ScenarioStory;
  readonly summarizer: Summarizer;
  /** The story's side-effect policy, read. */
  readonly sideEffects: SideEffectOption;
}

/** How the story records its incident: the same run, in the demo's store and in the retention chapter's scratch one. */
export function incidentRecording(telling: Telling): RecordOptions {
  const { scenario, story } = telling;
  const { incident } = story;
  return {
    agent: buildOf(scenario, incident.build),
    world: worldOf(telling, incident.at, incident.seed),
    input: incident.input,
    scenario: telling.directory,
    runId: incident.runId,
  };
}

/** A chapter's title, numbered. */
export function chapter(cli: CommandContext, number: number, text: string): void {
  cli.print(`\n${cli.style.bold(`${number}.`)} ${text}\n`);
}

// A fresh world each time: a simulated model's sampling has state, and a resume meets its run's world anew.
const worldOf = (telling: Telling, at: string, seed: number) =>
  telling.cli.openWorld(telling.scenario, { at, seed, latencyMs: 0 });

/** The fix and the control arm re-executed against the later world, and what that world now answers. */
export async function tellReexecution(telling: Telling, number: number): Promise<void> {
  const { cli, engine, scenario, story, summarizer } = telling;
  const { incident, laterAt } = story;
  chapter(cli, number, story.text.chapters.reexecute);
  cli.print(story.text.firewall);
  const reexecute = async (build: string) =>
    await engine.reexecute({
      sourceRunId: incident.runId,
      agent: buildOf(scenario, build),
      world: worldOf(telling, laterAt, cli.seed()),
      scenario: telling.directory,
      sideEffects: telling.sideEffects,
    });
  cli.print(formatRunBrief(await reexecute(story.fix), cli.style, summarizer));
  const control = await reexecute(incident.build);
  cli.print(formatRunBrief(control, cli.style, summarizer));
  cli.print(story.text.reexecuted(control.status === 'completed'));
  const drift = await probeDrift(engine, {
    runId: incident.runId,
    tools: buildOf(scenario, incident.build).tools,
    world: worldOf(telling, laterAt, incident.seed),
  });
  cli.print(
    `\`forkpoint drift ${incident.runId} --at ${laterAt}\` asks that day's world the recorded read-only requests, without re-running the agent:`,
  );
  cli.print(formatDrift(drift, cli.style));
}

/** The fix and the incident's build replayed strictly over the recording; returns the cassette they replayed. */
export async function tellReplays(telling: Telling, number: number): Promise<Cassette> {
  const { cli, engine, scenario, story, summarizer } = telling;
  chapter(cli, number, story.text.chapters.replay);
  const cassette = await engine.cassette(story.incident.runId);
  for (const build of [story.fix, story.incident.build]) {
    const replay = await engine.replay({
      agent: buildOf(scenario, build),
      cassette,
      mode: 'strict',
      scenario: telling.directory,
    });
    cli.print(formatRunBrief(replay, cli.style, summarizer));
  }
  cli.print(story.text.replayed);
  return cassette;
}

/** The incident forked with the story's change, stopped at the firewall, resumed, and compared with the incident. */
export async function tellFork(telling: Telling, number: number, incident: RunView): Promise<void> {
  const { cli, engine, scenario, story, summarizer } = telling;
  chapter(cli, number, story.text.chapters.fork);
  const agent = buildOf(scenario, story.incident.build);
  const seed = cli.seed();
  const blocked = await engine.fork({
    parentRunId: incident.runId,
    atStep: story.fork.atStep,
    override: parseForkOverride(story.fork.override),
    agent,
    world: worldOf(telling, story.incident.at, seed),
    scenario: telling.directory,
  });
  cli.print(formatRun(await engine.getRun(blocked.runId), cli.style, summarizer));
  cli.print(
    `${story.text.forkBlocked} \`forkpoint resume ${blocked.runId} --side-effects ${story.sideEffects}\` continues it from step ${blocked.error?.step ?? '?'}, in the same run:`,
  );
  const fork = await engine.resume({
    runId: blocked.runId,
    agent,
    world: worldOf(telling, story.incident.at, seed),
    sideEffects: telling.sideEffects,
  });
  cli.print(formatRun(fork, cli.style, summarizer));
  const comparison = compareRuns(incident, fork, (step) => summarizer.step(step));
  const first = comparison.firstDivergence;
  const word = (run: RunView) => (run.status === 'completed' ? summarizer.verdict(run.outcome) : run.status);
  cli.print(
    `compare ${incident.runId} ${fork.runId}: first divergence at step ${first?.step ?? '-'}${first === null ? '' : ` (${first.kind}#${first.index}, on the ${first.on})`}; outcome ${word(incident)} -> ${word(fork)}`,
  );
}

/** The volatile build replayed strictly, and the lint that finds its volatile bytes before any run. */
export async function tellVolatile(telling: Telling, number: number, cassette: Cassette): Promise<void> {
  const { cli, engine, scenario, story, summarizer } = telling;
  chapter(cli, number, story.text.chapters.volatile);
  const agent = buildOf(scenario, story.volatile);
  const stamped = await engine.replay({ agent, cassette, mode: 'strict', scenario: telling.directory });
  cli.print(formatRunBrief(stamped, cli.style, summarizer));
  cli.print(story.text.volatileReplayed);
  const lint = lintFirstRequest(agent, story.incident.input);
  cli.print(`\`forkpoint lint ${telling.directory} --build ${story.volatile}\` finds it before any run:`);
  cli.print(formatLint(lint, cli.style));
}
