import { Command } from '@commander-js/extra-typings';
import type { DriftReport, DriftStep } from '../../workflows/index.js';
import { probeDrift } from '../../workflows/index.js';
import { buildOf } from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { atOption, scenarioOption } from '../options/shared-options.js';
import { runIdValue } from '../options/value-parsers.js';
import type { Style } from '../../text/index.js';
import { scenarioFor } from './scenario-of-run.js';

/**
 * `forkpoint drift`: what the world of another date answers to a run's
 * recorded read-only tool requests. The agent is not re-run and the model is
 * never asked; tools not marked read-only are listed as skipped, never called.
 */
export function driftCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('drift')
      .description(
        'ask the world of DATE every read-only tool request a run recorded, and report what changed (writes no run)',
      )
      .usage('<run-id> --at DATE [--scenario DIR] [--json]')
      .argument('<run-id>', 'the recorded run, e.g. 9b40c1d5', runIdValue)
      .addOption(atOption().makeOptionMandatory())
      .addOption(scenarioOption()),
  ).action(async (runId, options) => {
    const { at } = options;
    await withStore(await cli.openStoreHolding(options, runId, 'read'), async (store) => {
      const engine = cli.engine(options, store);
      const run = await engine.getRunSummary(runId);
      const { scenario } = await scenarioFor(options.scenario, run.scenario, runId);
      const build = buildOf(scenario, run.agent.build);
      const report = await probeDrift(engine, {
        runId,
        tools: build.tools,
        world: cli.openWorld(scenario, { at, seed: run.seed ?? 0, latencyMs: 0 }),
      });
      if (options.json === true) cli.json(report);
      else cli.print(formatDrift(report, cli.style));
    });
    cli.exit(EXIT.ok);
  });
}

/** The drift report for people. */
export function formatDrift(report: DriftReport, style: Style): string {
  const lines = [
    `${style.bold('drift')} · run ${report.runId} · recorded against the world of ${report.recordedWorldAt ?? '?'}, asked again against ${report.worldAt ?? "today's"} · the agent is not re-run`,
  ];
  for (const step of report.steps) lines.push(`  ${formatStep(step, style)}`);
  lines.push(`${report.changed} changed, ${report.unchanged} unchanged, ${report.skipped} skipped`);
  return lines.join('\n');
}

function formatStep(step: DriftStep, style: Style): string {
  const at = `${step.kind}#${step.index} (step ${step.step})`;
  switch (step.status) {
    case 'unchanged':
      return `${at}: unchanged`;
    case 'skipped':
      return style.dim(`${at}: skipped, ${step.reason}`);
    case 'changed':
      return `${style.yellow(at)}: ${step.changes.map((change) => `${change.path} ${change.before} -> ${change.after}`).join(', ')}`;
  }
}
