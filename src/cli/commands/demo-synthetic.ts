import { join } from 'node:path';
import type { Engine } from '../../engine/index.js';
import { differencesBetween, evaluateSynthetic } from '../../workflows/index.js';
import type { Scenario } from '../../scenario/index.js';
import { buildOf, loadSyntheticCases, locateScenario, syntheticSupportOf } from '../../scenario/index.js';
import type { CommandContext } from '../command.js';

/**
 * The synthetic chapter: the hand-written suite scored with baseline and
 * patched, and what the patched build's 0.55 threshold costs in referrals of
 * legitimate faint forms.
 */
export async function tellSynthetic(
  cli: CommandContext,
  engine: Engine,
  scenario: Scenario,
  scenarioDir: string,
): Promise<void> {
  const support = syntheticSupportOf(scenario);
  const directory = join(scenarioDir, 'synthetic');
  // From the scenario's own folder, wherever the demo runs from.
  const cases = loadSyntheticCases(join(locateScenario(scenarioDir) ?? scenarioDir, 'synthetic'), support);
  const score = (build: string) =>
    evaluateSynthetic(engine, { support, cases, agent: buildOf(scenario, build), scenario: scenarioDir, seed: 1 });
  const baseline = await score('baseline');
  const patched = await score('patched');
  for (const evaluation of [baseline, patched]) {
    cli.print(
      `eval ${directory} --build ${evaluation.build}: ${evaluation.passed}/${evaluation.cases.length} pass (${(evaluation.passRate * 100).toFixed(1)}%)`,
    );
  }
  const referrals = differencesBetween(baseline, patched).filter(
    (difference) => difference.candidate.actual === 'refer',
  );
  cli.print(
    `The 0.55 threshold refers ${referrals.length} legitimate faint forms that baseline approves correctly: ${referrals.map((difference) => difference.id).join(', ')}.`,
  );
  cli.print(`\`npx forkpoint eval ${directory} --build patched --compare baseline\` lists them.`);
}
