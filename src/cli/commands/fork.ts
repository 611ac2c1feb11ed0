import { Command, Option } from '@commander-js/extra-typings';
import { outcomeHistogram } from '../../analysis/index.js';
import type { RunView } from '../../engine/index.js';
import { assertSeed, requireDriven } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { buildOf } from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT, exitOfRun } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import {
  atOption,
  buildOption,
  repeatsOption,
  scenarioOption,
  seedOption,
  sideEffectsOption,
} from '../options/shared-options.js';
import { integerOption, runIdOption, runIdValue } from '../options/value-parsers.js';
import { formatCostLine } from '../output/format-cost.js';
import { formatRun, formatRunBrief } from '../output/format-run.js';
import type { Summarizer } from '../../text/index.js';
import { summarizerOf, table } from '../../text/index.js';
import { overrideFrom } from './fork-override.js';
import { scenarioFor } from './scenario-of-run.js';

/** `forkpoint fork`: restore the checkpoint after step N-1, change one thing at step N, continue live. */
export function forkCommand(cli: CommandContext) {
  const command = new Command('fork')
    .description(
      'fork a run at step N with one thing changed (a tool result, a model response, the system prompt or the model), and continue live',
    )
    .usage(
      '<run-id> --at-step N (--tool-result JSON | --tool-merge JSON | --tool-patch JSON | --tool-error TEXT | --model-response JSON | --system-prompt TEXT | --system-prompt-file FILE | --model ID | --approval approved|rejected [--reason TEXT] | --override JSON) [--side-effects POLICY] [--build NAME] [--at DATE] [--seed N] [--repeats K | --run-id HEX] [--json]',
    )
    .argument('<run-id>', 'the run to fork, e.g. 9b40c1d5', runIdValue)
    .addOption(integerOption('--at-step <N>', 'the step to change', 0, Number.MAX_SAFE_INTEGER).makeOptionMandatory())
    // The override flags, declared here and not by a generic helper: typing a helper's long option chain over an
    // unknown command costs the compiler minutes (its declaration grows exponentially with the options).
    .addOption(new Option('--tool-result <JSON>', 'replace the tool result of step N'))
    .addOption(new Option('--tool-merge <JSON>', 'merge-patch (RFC 7386) the recorded tool result of step N'))
    .addOption(
      new Option(
        '--tool-patch <JSON>',
        'apply a JSON Patch (RFC 6902), a list of operations, to the recorded tool result of step N',
      ),
    )
    .addOption(
      new Option(
        '--tool-error <TEXT>',
        'make the tool at step N fail with this message (what if the service had failed?)',
      ),
    )
    .addOption(
      new Option(
        '--model-response <JSON>',
        'replace the model response of step N (the assistant turn, in the provider-neutral shape)',
      ),
    )
    .addOption(new Option('--system-prompt <TEXT>', 'use this system prompt from step N on (a model step)'))
    .addOption(new Option('--system-prompt-file <FILE>', 'the same, read from a file'))
    .addOption(new Option('--model <ID>', 'use this model from step N on (a model step)'))
    .addOption(
      new Option(
        '--approval <DECISION>',
        'answer the approval at step N otherwise (what if the reviewer had rejected?), with --reason TEXT',
      ).choices(['approved', 'rejected'] as const),
    )
    .addOption(new Option('--reason <TEXT>', "why, in the reviewer's words (with --approval)"))
    .addOption(
      new Option(
        '--override <JSON>',
        'any of the above as one JSON object, e.g. {"kind":"tool-error","message":"timed out"}',
      ),
    );
  return withCommonOptions(
    command
      .addOption(sideEffectsOption())
      .addOption(buildOption())
      .addOption(atOption('the world after the fork (default: the parent’s world date)'))
      .addOption(seedOption())
      .addOption(repeatsOption('make K sibling forks with different seeds and count their outcomes'))
      .addOption(
        runIdOption(
          '--run-id <HEX>',
          "choose the fork's run id: 12 lowercase hex characters, or 8 (not with --repeats)",
        ),
      )
      .addOption(scenarioOption()),
  ).action(async (runId, options) => {
    const { atStep, sideEffects, at, seed } = options;
    const override = overrideFrom(options);
    const repeats = options.repeats ?? 1;
    if (seed !== undefined) assertSeed(seed + repeats - 1);
    const forkRunId = options.runId;
    if (forkRunId !== undefined && repeats > 1)
      throw new ForkpointError('USAGE', '--run-id names one fork; with --repeats each sibling gets an id of its own');

    await withStore(await cli.openStoreHolding(options, runId, 'write'), async (store) => {
      const engine = cli.engine(options, store);
      const parent = await engine.getRunSummary(runId);
      // Before its scenario is looked for: a wrapped loop's run has none to load, and no build to fork it with.
      requireDriven(parent, 'fork');
      const { scenario, directory } = await scenarioFor(options.scenario, parent.scenario, runId);
      const agent = buildOf(scenario, options.build ?? parent.agent.build);
      const worldAt = at ?? parent.worldAt ?? undefined;
      if (worldAt === undefined)
        throw new ForkpointError('USAGE', `run ${runId} has no world date; pass --at DATE`, { details: { runId } });
      const forks: RunView[] = [];
      for (let i = 0; i < repeats; i++) {
        const fork = await engine.fork({
          parentRunId: runId,
          atStep,
          override,
          agent,
          world: cli.openWorld(scenario, {
            at: worldAt,
            seed: cli.seed(seed === undefined ? undefined : seed + i),
            latencyMs: 0,
          }),
          scenario: directory,
          ...(sideEffects === undefined ? {} : { sideEffects }),
          ...(forkRunId === undefined ? {} : { runId: forkRunId }),
        });
        // Shown whole: the steps it inherited, then its own.
        forks.push(await engine.getRun(fork.runId));
        if (repeats > 1) cli.note(`fork ${i + 1}/${repeats}: ${fork.runId}`);
      }
      printForks(cli, options.json === true, forks, summarizerOf(scenario));
      // A fork whose model asks again for a call that needs approval waits, as a recording does: no failure.
      cli.exit(forks.every((fork) => exitOfRun(fork.status) === EXIT.ok) ? EXIT.ok : EXIT.negative);
    });
  });
}

function printForks(cli: CommandContext, json: boolean, forks: readonly RunView[], summarizer: Summarizer): void {
  const single = forks.length === 1 ? forks[0] : undefined;
  if (json) {
    cli.json(single ?? { mode: 'fork', repeats: forks.length, histogram: outcomeHistogram(forks), runs: forks });
    return;
  }
  if (single !== undefined) {
    cli.print(`${formatRun(single, cli.style, summarizer)}\n${formatCostLine(single, cli.style)}`);
    return;
  }
  for (const fork of forks) cli.print(formatRunBrief(fork, cli.style, summarizer));
  const histogram = Object.entries(outcomeHistogram(forks)).sort((x, y) => y[1] - x[1]);
  cli.print(`\noutcomes of ${forks.length} sibling forks:`);
  const lines = table(
    histogram,
    [
      { header: '', cell: ([outcome]) => outcome },
      { header: '', align: 'right', cell: ([, count]) => `${count}/${forks.length}` },
      { header: '', cell: ([, count]) => '#'.repeat(Math.round((count / forks.length) * 30)) },
    ],
    cli.style,
    { indent: '  ', header: false },
  );
  cli.print(lines.join('\n'));
}
