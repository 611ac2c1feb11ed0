import { join } from 'node:path';
import { differencesBetween, evaluateSynthetic } from '../../workflows/index.js';
import { buildOf, loadSyntheticCases, locateScenario, syntheticSupportOf } from '../../scenario/index.js';
import type { Telling } from './demo-telling.js';

/**
 * The synthetic chapter: the hand-written suite scored with the incident's
 * build and the fix, and the cases the fix costs (those it ends with the
 * story's cost verdict where the incident's build passes).
 */
export async function tellSynthetic(telling: Telling): Promise<void> {
  const { cli, engine, scenario, story } = telling;
  const support = syntheticSupportOf(scenario);
  const directory = join(telling.directory, 'synthetic');
  // From the scenario's own folder, wherever the demo runs from.
  const cases = loadSyntheticCases(join(locateScenario(telling.directory) ?? telling.directory, 'synthetic'), support);
  const score = async (build: string) =>
    await evaluateSynthetic(engine, {
      support,
      cases,
      agent: buildOf(scenario, build),
      scenario: telling.directory,
      seed: 1,
    });
  const control = await score(story.incident.build);
  const fix = await score(story.fix);
  for (const evaluation of [control, fix]) {
    cli.print(
      `eval ${directory} --build ${evaluation.build}: ${evaluation.passed}/${evaluation.cases.length} pass (${(evaluation.passRate * 100).toFixed(1)}%)`,
    );
  }
  const costs = differencesBetween(control, fix).filter(
    (difference) => difference.candidate.actual === story.costVerdict,
  );
  cli.print(
    story.text.syntheticCost(
      costs.length,
      costs.map((difference) => difference.id),
    ),
  );
  cli.print(`\`npx forkpoint eval ${directory} --build ${story.fix} --compare ${story.incident.build}\` lists them.`);
}
