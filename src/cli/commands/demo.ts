import { probeDrift } from '../../workflows/index.js';
import { compareRuns } from '../../analysis/index.js';
import type { Engine, RunView } from '../../engine/index.js';
import { lintFirstRequest } from '../../workflows/index.js';
import { ForkpointError, isForkpointError } from '../../errors/index.js';
import type { Scenario } from '../../scenario/index.js';
import { buildOf, loadScenario } from '../../scenario/index.js';
import type { Command, CommandContext } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatRun, formatRunBrief } from '../output/format-run.js';
import { summarizeStep } from '../output/summarize-step.js';
import { tellRetention } from './demo-retention.js';
import { formatDrift } from './drift.js';
import { formatLint } from './lint.js';
import { tellSynthetic } from './demo-synthetic.js';
import { printCommandHelp } from './help.js';

/** The recording the story starts from: CLM-91077 on 4 March, as run 9b40c1d5. */
export const INCIDENT = {
  runId: '9b40c1d5',
  claimId: 'CLM-91077',
  at: '2026-03-04',
  build: 'baseline',
  seed: 20260304,
} as const;
const SCENARIO_DIR = 'scenarios/claims-triage';
const LATER = '2026-03-09';

// When the retention chapter's scratch copy of the incident was recorded: the evening of 4 March.
const RECORDED_AT = new Date('2026-03-04T17:42:00.000Z');

/**
 * `forkpoint demo` (what `npm start` runs): the claims-triage incident, told
 * step by step on the default database, each step labelled with its mode.
 */
export const demoCommand: Command = {
  name: 'demo',
  summary: 'tell the claims-triage incident story on the default database',
  usage: '[--db PATH]',
  options: {},
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    if (parsed.values.json === true)
      throw new ForkpointError('USAGE', 'demo tells a story for people; use the other commands for --json');
    const scenario = await loadScenario(SCENARIO_DIR);
    return withStore(cli.openStore(parsed), async (store) => {
      const engine = cli.engine(parsed, store);
      const world = (at: string) => (seed: number) => scenario.openWorld({ at, seed, latencyMs: 0 });

      chapter(cli, 1, `Record the incident: ${INCIDENT.claimId} on ${INCIDENT.at} with the baseline build.`);
      const incident = await recordIncident(engine, scenario, cli);
      cli.print(formatRun(incident, cli.style, scenario));
      cli.print(
        `The failure at step ${incident.error?.step ?? '?'} traces back to step 4, where OCR v1 read the folded form as 205.`,
      );

      chapter(cli, 2, `Re-execute on ${LATER} with the patched build, and with baseline as the control arm.`);
      cli.print(
        "A re-execution meets that day's world behind the side-effect firewall: estimate_repair registers an estimate, so both ask its simulator by name (--side-effects estimate_repair=simulate).",
      );
      const simulateEstimates = { tools: { estimate_repair: 'simulate' } } as const;
      const patchedAgain = await engine.reexecute({
        sourceRunId: incident.runId,
        agent: buildOf(scenario, 'patched'),
        at: LATER,
        world: world(LATER),
        scenario: SCENARIO_DIR,
        sideEffects: simulateEstimates,
      });
      cli.print(formatRunBrief(patchedAgain, cli.style));
      const controlAgain = await engine.reexecute({
        sourceRunId: incident.runId,
        agent: buildOf(scenario, 'baseline'),
        at: LATER,
        world: world(LATER),
        scenario: SCENARIO_DIR,
        sideEffects: simulateEstimates,
      });
      cli.print(formatRunBrief(controlAgain, cli.style));
      cli.print(
        controlAgain.status === 'completed'
          ? 'Both arms are green: OCR v2 reads 2050 now, so the failing trajectory no longer reproduces and the fix was never exercised.'
          : "The control arm still fails on today's world.",
      );
      const drift = await probeDrift(engine, {
        runId: incident.runId,
        at: LATER,
        tools: buildOf(scenario, INCIDENT.build).tools,
        world: scenario.openWorld({ at: LATER, seed: INCIDENT.seed, latencyMs: 0 }),
      });
      cli.print(
        `\`forkpoint drift ${incident.runId} --at ${LATER}\` asks that day's world the recorded read-only requests, without re-running the agent:`,
      );
      cli.print(formatDrift(drift, cli.style));

      chapter(cli, 3, 'Replay strictly over the recorded observations: patched, then baseline.');
      const cassette = await engine.cassette(incident.runId);
      const patchedReplay = await engine.replay({
        agent: buildOf(scenario, 'patched'),
        cassette,
        mode: 'strict',
        scenario: SCENARIO_DIR,
      });
      cli.print(formatRunBrief(patchedReplay, cli.style));
      const baselineReplay = await engine.replay({
        agent: buildOf(scenario, 'baseline'),
        cassette,
        mode: 'strict',
        scenario: SCENARIO_DIR,
      });
      cli.print(formatRunBrief(baselineReplay, cli.style));
      cli.print(
        'Over the same observations the patched build refers the claim and the baseline still fails at step 9: the fix is confirmed on the recorded trajectory.',
      );

      chapter(
        cli,
        4,
        'Fork the incident at step 4 with the corrected OCR reading (2050 at 0.97), and compare the branches.',
      );
      const blocked = await engine.fork({
        parentRunId: incident.runId,
        atStep: 4,
        override: { kind: 'tool-merge', patch: { fields: { damage_area_cm2: { value: 2050, confidence: 0.97 } } } },
        agent: buildOf(scenario, 'baseline'),
        world: world(INCIDENT.at),
        scenario: SCENARIO_DIR,
      });
      cli.print(formatRun(blocked, cli.style, scenario));
      cli.print(
        `The firewall held: a fork never registers a second estimate unless asked by name. \`forkpoint resume ${blocked.runId} --side-effects estimate_repair=simulate\` continues it from step ${blocked.error?.step ?? '?'}, in the same run:`,
      );
      const fork = await engine.resume({
        runId: blocked.runId,
        agent: buildOf(scenario, 'baseline'),
        world: world(INCIDENT.at),
        sideEffects: simulateEstimates,
      });
      cli.print(formatRun(fork, cli.style, scenario));
      const comparison = compareRuns(incident, fork, (step) => summarizeStep(step, scenario));
      const first = comparison.firstDivergence;
      cli.print(
        `compare ${incident.runId} ${fork.runId}: first divergence at step ${first?.step ?? '-'}${first === null ? '' : ` (${first.kind}#${first.index}, on the ${first.on})`}; outcome ${outcomeWord(incident)} -> ${outcomeWord(fork)}`,
      );

      chapter(cli, 5, 'Replay strictly after a timestamp is added to the system prompt (build timestamped).');
      const stamped = await engine.replay({
        agent: buildOf(scenario, 'timestamped'),
        cassette,
        mode: 'strict',
        scenario: SCENARIO_DIR,
      });
      cli.print(formatRunBrief(stamped, cli.style));
      cli.print(
        'The first request already differs: the clock in the prompt breaks cassette matching, and the prompt cache, which matches the same prefix.',
      );
      const lint = lintFirstRequest(buildOf(scenario, 'timestamped'), { claimId: INCIDENT.claimId });
      cli.print(`\`forkpoint lint ${SCENARIO_DIR} --build timestamped\` finds it before any run:`);
      cli.print(formatLint(lint, cli.style));

      chapter(
        cli,
        6,
        'Retention: 73 hours later the full tier is gone; the structural tier (shapes only, kept 90 days) still replays.',
      );
      await tellRetention(
        cli,
        { scenario, scenarioDir: SCENARIO_DIR, incident: INCIDENT, recordedAt: RECORDED_AT },
        engine,
      );

      chapter(cli, 7, 'Synthetic claims, kept without expiry: score baseline and patched on the hand-written suite.');
      await tellSynthetic(cli, engine, scenario, SCENARIO_DIR);

      cli.print(
        `\nEvery run of this story is in ${store.location}: \`npx forkpoint tree ${incident.runId}\` shows them under the incident,`,
      );
      cli.print(
        '`npx forkpoint show <run-id>` shows one (a checkpoint with --step K), `npx forkpoint compare <a> <b>` sets two side by side.',
      );
      return EXIT.ok;
    });
  },
};

function outcomeWord(run: RunView): string {
  return run.status === 'completed' ? String(run.outcome?.decision ?? 'completed') : run.status;
}

function chapter(cli: CommandContext, number: number, text: string): void {
  cli.print(`\n${cli.style.bold(`${number}.`)} ${text}\n`);
}

// The story always starts from run 9b40c1d5; a database that already holds it keeps it. The claims world is
// made up, so the demo's recording is in the synthetic tier: it never expires, and the story can be told
// again any day (chapter 6 shows what happens to a full-tier recording, on a scratch copy).
async function recordIncident(engine: Engine, scenario: Scenario, cli: CommandContext): Promise<RunView> {
  const existing = (await engine.listRuns()).find((run) => run.runId === INCIDENT.runId);
  if (existing !== undefined) {
    if (existing.mode !== 'record' || existing.input.claimId !== INCIDENT.claimId || existing.at !== INCIDENT.at) {
      throw new ForkpointError(
        'RUN_EXISTS',
        `run ${INCIDENT.runId} in ${engine.store.location} is not the incident recording; run the demo with --db on another file`,
      );
    }
    try {
      await engine.cassette(INCIDENT.runId);
    } catch (error) {
      if (!isForkpointError(error, 'CASSETTE_EXPIRED')) throw error;
      throw new ForkpointError(
        'CASSETTE_EXPIRED',
        `${error.message}. The story needs it: delete ${engine.store.location} or run the demo with --db on another file`,
      );
    }
    cli.note(`(run ${INCIDENT.runId} is already recorded in ${engine.store.location}; showing it)`);
    return engine.getRun(INCIDENT.runId);
  }
  return engine.record({
    agent: buildOf(scenario, INCIDENT.build),
    world: (seed) => scenario.openWorld({ at: INCIDENT.at, seed, latencyMs: 0 }),
    input: { claimId: INCIDENT.claimId },
    at: INCIDENT.at,
    scenario: SCENARIO_DIR,
    seed: INCIDENT.seed,
    runId: INCIDENT.runId,
    tier: 'synthetic',
  });
}
