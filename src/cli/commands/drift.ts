import { probeDrift } from '../../workflows/index.js';
import type { DriftReport, DriftStep } from '../../workflows/index.js';
import { assertWorldDate } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { buildOf } from '../../scenario/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { Style } from '../output/style.js';
import { stringOption } from '../parse-options.js';
import { SHARED_OPTIONS } from '../shared-options.js';
import { printCommandHelp } from './help.js';
import { scenarioFor } from './scenario-of-run.js';

/**
 * `forkpoint drift`: what the world of another date answers to a run's
 * recorded read-only tool requests. The agent is not re-run and the model is
 * never asked; tools not marked read-only are listed as skipped, never called.
 */
export const driftCommand: Command = {
  name: 'drift',
  summary: 'ask the world of DATE every read-only tool request a run recorded, and report what changed (writes no run)',
  usage: '<run-id> --at DATE [--scenario DIR] [--json]',
  options: { at: SHARED_OPTIONS.at, scenario: SHARED_OPTIONS.scenario },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const runId = cli.runIdArgument(parsed, 'forkpoint drift 9b40c1d5 --at 2026-03-09');
    const at = stringOption(parsed, 'at');
    if (at === undefined) throw new ForkpointError('USAGE', 'drift needs --at DATE, the day of the world to ask');
    assertWorldDate(at);
    return withStore(cli.openStoreHolding(parsed, runId, 'read'), async (store) => {
      const engine = cli.engine(parsed, store);
      const run = await engine.getRunSummary(runId);
      const { scenario } = await scenarioFor(stringOption(parsed, 'scenario'), run.scenario, runId);
      const build = buildOf(scenario, run.agent.build);
      const report = await probeDrift(engine, {
        runId,
        at,
        tools: build.tools,
        world: scenario.openWorld({ at, seed: run.seed ?? 0, latencyMs: 0 }),
      });
      if (parsed.values.json === true) cli.json(report);
      else cli.print(formatDrift(report, cli.style));
      return EXIT.ok;
    });
  },
};

/** The drift report for people. */
export function formatDrift(report: DriftReport, style: Style): string {
  const lines = [
    `${style.bold('drift')} · run ${report.runId} · recorded against the world of ${report.recordedAt ?? '?'}, asked again against ${report.at} · the agent is not re-run`,
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
