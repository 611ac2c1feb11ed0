import { createEngine } from '../../engine/index.js';
import type { Engine, RunView } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { Scenario } from '../../scenario/index.js';
import { buildOf, loadScenario } from '../../scenario/index.js';
import type { Command, CommandContext } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatRun } from '../output/format-run.js';
import { printCommandHelp } from './help.js';

/** The recording the story starts from: CLM-91077 on 4 March, as run 9b40c1d5. */
export const INCIDENT = { runId: '9b40c1d5', claimId: 'CLM-91077', at: '2026-03-04', build: 'baseline', seed: 20260304 } as const;
const SCENARIO_DIR = 'scenarios/claims-triage';

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
    if (parsed.values.json === true) throw new ForkpointError('USAGE', 'demo tells a story for people; use the other commands for --json');
    const scenario = await loadScenario(SCENARIO_DIR);
    return withStore(cli.openStore(parsed), async (store) => {
      const engine = createEngine({ store });
      chapter(cli, 1, 'Record the incident: CLM-91077 on 2026-03-04 with the baseline build.');
      const incident = await recordIncident(engine, scenario, cli);
      cli.print(formatRun(incident, cli.style, scenario));
      const ocr = incident.steps[3];
      cli.print(
        `\nThe failure at step ${incident.error?.step ?? '?'} traces back to step 4: ${ocr?.kind}#${ocr?.index} read the folded form under OCR v1.`,
      );

      chapter(cli, 2, 'The same claim recorded on 2026-03-09, after the OCR service moved to v2. A new run, not a replay.');
      const later = await engine.record({
        agent: buildOf(scenario, 'baseline'),
        world: (seed) => scenario.openWorld({ at: '2026-03-09', seed, latencyMs: 0 }),
        input: { claimId: INCIDENT.claimId },
        at: '2026-03-09',
        scenario: SCENARIO_DIR,
        seed: INCIDENT.seed,
      });
      cli.print(formatRun(later, cli.style, scenario));
      cli.print(`\nInspect any run with \`npx forkpoint show <run-id>\`, a checkpoint with \`--step K\`; list them with \`npx forkpoint runs\`.`);
      return EXIT.ok;
    });
  },
};

function chapter(cli: CommandContext, number: number, text: string): void {
  cli.print(`\n${cli.style.bold(`${number}.`)} ${text}\n`);
}

// The story always starts from run 9b40c1d5; a database that already holds it keeps it.
async function recordIncident(engine: Engine, scenario: Scenario, cli: CommandContext): Promise<RunView> {
  const existing = engine.listRuns().find((run) => run.runId === INCIDENT.runId);
  if (existing !== undefined) {
    if (existing.mode !== 'record' || existing.input.claimId !== INCIDENT.claimId || existing.at !== INCIDENT.at) {
      throw new ForkpointError('RUN_EXISTS', `run ${INCIDENT.runId} in ${engine.store.location} is not the incident recording; run the demo with --db on another file`);
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
  });
}
