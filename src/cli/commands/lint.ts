import { Command } from '@commander-js/extra-typings';
import type { LintReport } from '../../workflows/index.js';
import { lintFirstRequest } from '../../workflows/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { JsonObject } from '../../json/index.js';
import type { Scenario } from '../../scenario/index.js';
import { buildOf } from '../../scenario/index.js';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { ScenarioFlags } from '../options/scenario-flags.js';
import { buildOption } from '../options/shared-options.js';
import type { Style } from '../../text/index.js';
import { oneLine } from '../../text/index.js';

/**
 * `forkpoint lint`: the volatile-prompt lint. Builds a build's first model
 * request under two clocks and two seeds and reports every byte range that
 * differs; exits 1 when anything does.
 */
export function lintCommand(cli: CommandContext) {
  const command = withCommonOptions(
    new Command('lint')
      .description(
        "find bytes of a build's first request that change on every run (they break cassettes and the prompt cache)",
      )
      .usage('<scenario-dir> --build NAME [its input flags] [--json]')
      .argument('<scenario-dir>', 'the scenario whose build to lint')
      .addOption(buildOption('the build to lint').makeOptionMandatory()),
  );
  const flags = ScenarioFlags.attach(command);
  return command.action(async (directory, options) => {
    const { scenario, flags: values } = await flags.read(command, directory);
    const agent = buildOf(scenario, options.build);
    const report = lintFirstRequest(agent, inputOf(scenario, values));
    if (options.json === true) cli.json(report);
    else cli.print(formatLint(report, cli.style));
    cli.exit(report.flagged ? EXIT.negative : EXIT.ok);
  });
}

// The input given by flags, or else the scenario's first: the prefix under test rarely depends on it.
function inputOf(scenario: Scenario, flags: Readonly<Record<string, string | undefined>>): JsonObject {
  if (Object.values(flags).some((value) => value !== undefined)) return scenario.inputFrom(flags);
  const first = scenario.allInputs?.()[0];
  if (first === undefined)
    throw new ForkpointError('USAGE', `scenario ${scenario.name} lists no inputs; give one with its input flags`);
  return first;
}

/** The lint report for people. */
export function formatLint(report: LintReport, style: Style): string {
  const [a, b] = report.environments;
  const head = `${style.bold('lint')} · ${report.agent.name}/${report.agent.build} (code ${report.agent.codeHash}) · the first model request built twice: clock ${a.now} seed ${a.seed}, clock ${b.now} seed ${b.seed}`;
  if (!report.flagged)
    return `${head}\n${style.green('clean')}: the first request is byte-identical under both clocks and seeds`;
  const lines = [head];
  for (const finding of report.findings) {
    const kind = finding.looksLike === null ? '' : ` (${finding.looksLike})`;
    lines.push(
      `  ${style.red('FLAGGED')} ${finding.path}[${finding.start}..${finding.end}]: ${JSON.stringify(oneLine(finding.before, 60))} vs ${JSON.stringify(oneLine(finding.after, 60))}${kind}`,
    );
  }
  const where = report.findings.some((finding) => finding.path === 'system' || finding.path.startsWith('messages[0]'))
    ? 'in the system prompt or the first message'
    : 'in the first request';
  lines.push(
    `a difference ${where} changes every request hash of the run, so no cassette matches it, and ends the prefix the provider's prompt cache can reuse: ${report.stablePrefixBytes} of ${report.requestBytes} bytes stay cacheable`,
  );
  return lines.join('\n');
}
