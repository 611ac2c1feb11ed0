import { dirname, resolve } from 'node:path';
import { Command, Option } from '@commander-js/extra-typings';
import type { SyntheticDifference, SyntheticEvaluation } from '../../workflows/index.js';
import { differencesBetween, evaluateSynthetic } from '../../workflows/index.js';
import {
  buildOf,
  loadScenario,
  loadSyntheticCases,
  locateScenario,
  scenarioReference,
  syntheticSupportOf,
} from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { buildOption, scenarioOption, seedOption } from '../options/shared-options.js';
import type { Style } from '../../text/index.js';

/**
 * `forkpoint eval`: runs every hand-written synthetic case with a build and
 * scores it against its expected outcome. With `--compare`, runs a second
 * build over the same cases and lists where the two differ: what a change
 * such as a confidence threshold costs.
 */
export function evalCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('eval')
      .description('score a build over hand-written synthetic cases (and compare it with another build)')
      .usage('<synthetic-dir> --build NAME [--compare NAME] [--scenario DIR] [--seed N] [--json]')
      .argument('<synthetic-dir>', 'the folder of synthetic cases (*.json)')
      .addOption(buildOption('the build to score').makeOptionMandatory())
      .addOption(new Option('--compare <NAME>', 'also score this build, and list the cases the two handle differently'))
      .addOption(scenarioOption('the scenario directory (default: the parent of <synthetic-dir>)'))
      .addOption(seedOption("the model's sampling for every case (default 1)")),
  ).action(async (directory, options) => {
    // Found as a scenario is: as given, else from the package root (`scenarios/claims-triage/synthetic` from any folder).
    const casesDir = locateScenario(directory) ?? directory;
    const scenarioDir = options.scenario ?? dirname(resolve(casesDir));
    const scenario = await loadScenario(scenarioDir);
    const support = syntheticSupportOf(scenario);
    const agent = buildOf(scenario, options.build);
    const compareName = options.compare;
    const reference = compareName === undefined ? undefined : buildOf(scenario, compareName);
    const seed = options.seed ?? 1;
    const cases = loadSyntheticCases(casesDir, support);

    await withStore(await cli.openStore(options), async (store) => {
      const engine = cli.engine(options, store);
      const evaluate = async (build: typeof agent) =>
        await evaluateSynthetic(engine, {
          support,
          cases,
          agent: build,
          scenario: scenarioReference(scenarioDir),
          seed,
          onCase: (done, total) => {
            cli.note(`eval ${build.build}: ${done}/${total}`);
          },
        });
      const evaluation = await evaluate(agent);
      const comparison =
        reference === undefined ? undefined : differencesBetween(await evaluate(reference), evaluation);
      if (options.json === true) {
        cli.json({
          mode: 'eval',
          directory,
          scenario: scenarioDir,
          seed,
          ...evaluation,
          ...(comparison === undefined ? {} : { compare: compareName, differences: comparison }),
        });
      } else {
        cli.print(formatEvaluation(evaluation, cli.style));
        if (comparison !== undefined && compareName !== undefined)
          cli.print(formatDifferences(evaluation.build, compareName, comparison, cli.style));
      }
      cli.exit(evaluation.failed === 0 ? EXIT.ok : EXIT.negative);
    });
  });
}

function formatEvaluation(evaluation: SyntheticEvaluation, style: Style): string {
  const lines = [`eval · build ${evaluation.build} · ${evaluation.cases.length} synthetic cases`];
  for (const result of evaluation.cases.filter((candidate) => !candidate.verdict.pass)) {
    lines.push(
      `  ${style.red('FAIL')} ${result.id} ${result.file}: expected ${result.verdict.expected}, got ${result.verdict.actual} (run ${result.runId})`,
    );
  }
  const rate = `${(evaluation.passRate * 100).toFixed(1)}%`;
  const summary = `${evaluation.passed} passed, ${evaluation.failed} failed (pass rate ${rate})`;
  lines.push(evaluation.failed === 0 ? style.green(summary) : style.red(summary));
  return lines.join('\n');
}

function formatDifferences(
  build: string,
  reference: string,
  differences: readonly SyntheticDifference[],
  style: Style,
): string {
  if (differences.length === 0) return `${build} and ${reference} handle every case the same way`;
  const lines = [
    `${build} handles ${differences.length} case${differences.length === 1 ? '' : 's'} differently from ${reference}:`,
  ];
  for (const difference of differences) {
    const verdict = difference.candidate.pass ? style.green('still passes') : style.red('now fails');
    lines.push(
      `  ${difference.id}: ${reference} ${difference.reference.actual} -> ${build} ${difference.candidate.actual} (expected ${difference.expected}; ${verdict})`,
    );
  }
  return lines.join('\n');
}
