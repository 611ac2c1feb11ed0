import { assertRunId, assertWorldDate, parseCapturePolicy } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { buildOf, loadScenario, scenarioReference } from '../../scenario/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatRunEnd, headline, stepTableHeader, stepTableLine } from '../output/format-run.js';
import type { OptionSpec } from '../parse-options.js';
import { COMMON_OPTIONS, integerOption, stringOption } from '../parse-options.js';
import { SHARED_OPTIONS, inputFlagOptions, inputFlagValues } from '../shared-options.js';
import { printCommandHelp } from './help.js';

const OPTIONS: Readonly<Record<string, OptionSpec>> = {
  at: SHARED_OPTIONS.at,
  build: SHARED_OPTIONS.build,
  'run-id': {
    type: 'string',
    value: 'HEX',
    description: 'choose the run id: 12 lowercase hex characters, or 8 (default: a fresh 12)',
  },
  seed: SHARED_OPTIONS.seed,
  latency: SHARED_OPTIONS.latency,
  capture: { ...SHARED_OPTIONS.capture, description: `${SHARED_OPTIONS.capture.description} (default all)` },
  tier: {
    type: 'string',
    value: 'full|synthetic',
    description:
      "full (default: real payloads, kept for the store's full-tier period) or synthetic (a made-up input that holds no customer data: kept without expiry, for fixtures)",
  },
};

/** `forkpoint record`: a new run against the live world, every step checkpointed as it happens. */
export const recordCommand: Command = {
  name: 'record',
  summary: 'record a run against the live world, checkpointing every step',
  usage:
    '<scenario-dir> --at DATE [scenario input flags, e.g. --claim ID] [--build NAME] [--run-id HEX] [--seed N] [--capture POLICY] [--tier full|synthetic] [--json]',
  options: OPTIONS,
  async run(args, cli) {
    if (args.includes('--help')) return printCommandHelp(this, cli);
    const directory = firstPositional(args);
    if (directory === undefined) {
      throw new ForkpointError(
        'USAGE',
        'record needs a scenario directory, e.g. `forkpoint record scenarios/claims-triage --claim CLM-91077 --at 2026-03-04`',
      );
    }
    const scenario = await loadScenario(directory);
    const parsed = cli.parse(args, { ...OPTIONS, ...inputFlagOptions(scenario) });
    if (parsed.positionals.length > 1)
      throw new ForkpointError('USAGE', `unexpected argument "${parsed.positionals[1]}"; see --help`);
    const at = stringOption(parsed, 'at');
    if (at === undefined)
      throw new ForkpointError('USAGE', 'record needs --at DATE, the day of the world to run against (YYYY-MM-DD)');
    assertWorldDate(at);
    const runId = stringOption(parsed, 'run-id');
    if (runId !== undefined) assertRunId(runId);
    const seed = integerOption(parsed, 'seed', 0, 0xffffffff);
    const latencyMs = integerOption(parsed, 'latency', 0, 60_000) ?? 0;
    const agent = buildOf(scenario, stringOption(parsed, 'build'));
    const capture = parseCapturePolicy(stringOption(parsed, 'capture') ?? 'all');
    const tier = stringOption(parsed, 'tier') ?? 'full';
    if (tier !== 'full' && tier !== 'synthetic')
      throw new ForkpointError('USAGE', `--tier must be full or synthetic, got "${tier}"`);
    const input = scenario.inputFrom(inputFlagValues(scenario, parsed));

    return withStore(cli.openStore(parsed), async (store) => {
      const json = parsed.values.json === true;
      // The table grows as the run does, so that a long or stuck run is visible: on stdout for people, and
      // as progress on stderr beside a JSON document.
      const layout = { attempts: false, fromWidth: 9 };
      const run = await cli.engine(parsed, store).record({
        agent,
        world: (worldSeed) => scenario.openWorld({ at, seed: worldSeed, latencyMs }),
        input,
        at,
        scenario: scenarioReference(directory),
        ...(seed === undefined ? {} : { seed }),
        ...(runId === undefined ? {} : { runId }),
        ...(capture.keep === 'all' ? {} : { capture }),
        tier,
        onStarted: (started) =>
          json
            ? cli.note(`record: run ${started.runId} started`)
            : cli.print(`${headline(started, cli.style)}\n${stepTableHeader(layout, cli.style)}`),
        onStep: (step) =>
          json
            ? cli.note(`record: step ${step.step} ${step.kind}#${step.index} committed`)
            : cli.print(stepTableLine(step, layout, cli.style, scenario)),
      });
      if (json) cli.json(run);
      else {
        cli.print(formatRunEnd(run, cli.style).join('\n'));
        if (run.capture?.kept === false) {
          cli.print(
            cli.style.dim(
              `capture ${stringOption(parsed, 'capture') ?? ''}: not sampled, so only the structural tier and the summary are kept (full ${run.capture.bytes.full} bytes, structural ${run.capture.bytes.structural} bytes)`,
            ),
          );
        }
      }
      return run.status === 'completed' ? EXIT.ok : EXIT.negative;
    });
  },
};

/** The first argument that is neither an option nor an option's value. */
function firstPositional(args: readonly string[]): string | undefined {
  const switches = new Set(
    Object.entries({ ...COMMON_OPTIONS, ...OPTIONS })
      .filter(([, spec]) => spec.type === 'boolean')
      .map(([name]) => name),
  );
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1];
    if (!arg.startsWith('-')) return arg;
    if (!arg.includes('=') && !switches.has(arg.replace(/^-+/, ''))) i++;
  }
  return undefined;
}
