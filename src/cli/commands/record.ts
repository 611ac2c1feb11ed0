import { Command, Option } from '@commander-js/extra-typings';
import { formatCapturePolicy } from '../../engine/index.js';
import { buildOf, scenarioReference } from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { exitOfRun } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { ScenarioFlags } from '../options/scenario-flags.js';
import { atOption, buildOption, captureOption, latencyOption, seedOption } from '../options/shared-options.js';
import { runIdOption } from '../options/value-parsers.js';
import { headline, streamingStepTable, summarizerOf } from '../../text/index.js';
import { formatRunEnd } from '../output/format-run.js';

/** `forkpoint record`: a new run against the live world, every step checkpointed as it happens. */
export function recordCommand(cli: CommandContext) {
  const command = withCommonOptions(
    new Command('record')
      .description('record a run against the live world, checkpointing every step')
      .usage(
        '<scenario-dir> --at DATE [its input flags] [--build NAME] [--run-id HEX] [--seed N] [--capture POLICY] [--tier full|synthetic] [--json]',
      )
      .argument('<scenario-dir>', 'the scenario: its builds, its world, and the input flags listed below')
      .addOption(atOption().makeOptionMandatory())
      .addOption(buildOption())
      .addOption(
        runIdOption('--run-id <HEX>', 'choose the run id: 12 lowercase hex characters, or 8 (default: a fresh 12)'),
      )
      .addOption(seedOption())
      .addOption(latencyOption())
      .addOption(captureOption('all'))
      .addOption(
        new Option(
          '--tier <TIER>',
          "full (default: real payloads, kept for the store's full-tier period) or synthetic (a made-up input that holds no customer data: kept without expiry, for fixtures)",
        ).choices(['full', 'synthetic'] as const),
      ),
  );
  const flags = ScenarioFlags.attach(command);
  return command.action(async (directory, options) => {
    const { scenario, flags: values } = await flags.read(command, directory);
    const { at, seed, runId } = options;
    const latencyMs = options.latency ?? 0;
    const agent = buildOf(scenario, options.build);
    const capture = options.capture ?? { keep: 'all' };
    const input = scenario.inputFrom(values);
    const summarizer = summarizerOf(scenario);
    const json = options.json === true;
    // The table grows as the run does, so that a long or stuck run is visible: on stdout for people, and
    // as progress on stderr beside a JSON document.
    const steps = streamingStepTable(
      agent.tools.map((tool) => tool.name),
      summarizer,
      cli.style,
    );
    await withStore(await cli.openStore(options), async (store) => {
      const engine = cli.engine(options, store);
      const run = await engine.record({
        agent,
        world: cli.openWorld(scenario, { at, seed: cli.seed(seed), latencyMs }),
        input,
        scenario: scenarioReference(directory),
        ...(runId === undefined ? {} : { runId }),
        ...(capture.keep === 'all' ? {} : { capture }),
        tier: options.tier ?? 'full',
        onStarted: (started) => {
          if (json) cli.note(`record: run ${started.runId} started`);
          else cli.print(`${headline(started, cli.style)}\n${steps.header}`);
        },
        onStep: (step) => {
          if (json) cli.note(`record: step ${step.step} ${step.kind}#${step.index} committed`);
          else cli.print(steps.line(step));
        },
      });
      if (json) cli.json(run);
      else {
        cli.print(formatRunEnd(run, cli.style, summarizer).join('\n'));
        if (run.capture?.kept === false) {
          cli.print(
            cli.style.dim(
              `capture ${formatCapturePolicy(capture)}: not sampled, so only the structural tier and the summary are kept (full ${run.capture.bytes.full} bytes, structural ${run.capture.bytes.structural} bytes)`,
            ),
          );
        }
      }
      cli.exit(exitOfRun(run.status));
    });
  });
}
