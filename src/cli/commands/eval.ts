import { dirname, resolve } from 'node:path';
import type { SyntheticDifference, SyntheticEvaluation } from '../../workflows/index.js';
import { differencesBetween, evaluateSynthetic } from '../../workflows/index.js';
import { ForkpointError } from '../../errors/index.js';
import {
  buildOf,
  loadScenario,
  loadSyntheticCases,
  locateScenario,
  scenarioReference,
  syntheticSupportOf,
} from '../../scenario/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { Style } from '../output/style.js';
import { integerOption, stringOption } from '../parse-options.js';
import { SHARED_OPTIONS } from '../shared-options.js';
import { printCommandHelp } from './help.js';

/**
 * `forkpoint eval`: runs every hand-written synthetic case with a build and
 * scores it against its expected outcome. With `--compare`, runs a second
 * build over the same cases and lists where the two differ: what a change
 * such as a confidence threshold costs.
 */
export const evalCommand: Command = {
  name: 'eval',
  summary: 'score a build over hand-written synthetic cases (and compare it with another build)',
  usage: '<synthetic-dir> --build NAME [--compare NAME] [--scenario DIR] [--seed N] [--json]',
  options: {
    build: { type: 'string', value: 'NAME', description: 'the build to score' },
    compare: {
      type: 'string',
      value: 'NAME',
      description: 'also score this build, and list the cases the two handle differently',
    },
    scenario: {
      ...SHARED_OPTIONS.scenario,
      description: 'the scenario directory (default: the parent of <synthetic-dir>)',
    },
    seed: { ...SHARED_OPTIONS.seed, description: "the model's sampling for every case (default 1)" },
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const [directory, extra] = parsed.positionals;
    if (directory === undefined)
      throw new ForkpointError(
        'USAGE',
        'eval needs the synthetic cases directory, e.g. `forkpoint eval scenarios/claims-triage/synthetic --build baseline`',
      );
    if (extra !== undefined) throw new ForkpointError('USAGE', `unexpected argument "${extra}"; see --help`);
    const buildName = stringOption(parsed, 'build');
    if (buildName === undefined) throw new ForkpointError('USAGE', 'eval needs --build NAME, the build to score');
    // Found as a scenario is: as given, else from the package root (`scenarios/claims-triage/synthetic` from any folder).
    const casesDir = locateScenario(directory) ?? directory;
    const scenarioDir = stringOption(parsed, 'scenario') ?? dirname(resolve(casesDir));
    const scenario = await loadScenario(scenarioDir);
    const support = syntheticSupportOf(scenario);
    const agent = buildOf(scenario, buildName);
    const compareName = stringOption(parsed, 'compare');
    const reference = compareName === undefined ? undefined : buildOf(scenario, compareName);
    const seed = integerOption(parsed, 'seed', 0, 0xffffffff) ?? 1;
    const cases = loadSyntheticCases(casesDir, support);

    return withStore(cli.openStore(parsed), async (store) => {
      const engine = cli.engine(parsed, store);
      const evaluate = (build: typeof agent) =>
        evaluateSynthetic(engine, {
          support,
          cases,
          agent: build,
          scenario: scenarioReference(scenarioDir),
          seed,
          onCase: (done, total) => cli.note(`eval ${build.build}: ${done}/${total}`),
        });
      const evaluation = await evaluate(agent);
      const comparison =
        reference === undefined ? undefined : differencesBetween(await evaluate(reference), evaluation);
      if (parsed.values.json === true) {
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
        if (comparison !== undefined)
          cli.print(formatDifferences(evaluation.build, compareName!, comparison, cli.style));
      }
      return evaluation.failed === 0 ? EXIT.ok : EXIT.negative;
    });
  },
};

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
