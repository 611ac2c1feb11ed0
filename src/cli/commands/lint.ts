import type { LintReport } from '../../workflows/index.js';
import { lintFirstRequest } from '../../workflows/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { JsonObject } from '../../json/index.js';
import type { Scenario } from '../../scenario/index.js';
import { buildOf, loadScenario } from '../../scenario/index.js';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { Style } from '../output/style.js';
import { oneLine } from '../output/summarize-step.js';
import { stringOption } from '../parse-options.js';
import { inputFlagOptions, inputFlagValues } from '../shared-options.js';
import { printCommandHelp } from './help.js';

/**
 * `forkpoint lint`: the volatile-prompt lint. Builds a build's first model
 * request under two clocks and two seeds and reports every byte range that
 * differs; exits 1 when anything does.
 */
export const lintCommand: Command = {
  name: 'lint',
  summary: "find bytes of a build's first request that change on every run (they break cassettes and the prompt cache)",
  usage: '<scenario-dir> --build NAME [scenario input flags, e.g. --claim ID] [--json]',
  options: { build: { type: 'string', value: 'NAME', description: 'the build to lint' } },
  async run(args, cli) {
    if (args.includes('--help')) return printCommandHelp(this, cli);
    const directory = args[0]?.startsWith('-') === false ? args[0] : undefined;
    if (directory === undefined)
      throw new ForkpointError(
        'USAGE',
        'lint needs the scenario directory first, e.g. `forkpoint lint scenarios/claims-triage --build timestamped`',
      );
    const scenario = await loadScenario(directory);
    const parsed = cli.parse(args, { ...this.options, ...inputFlagOptions(scenario) });
    if (parsed.positionals.length > 1)
      throw new ForkpointError('USAGE', `unexpected argument "${parsed.positionals[1]}"; see --help`);
    const buildName = stringOption(parsed, 'build');
    if (buildName === undefined) throw new ForkpointError('USAGE', 'lint needs --build NAME, the build to lint');
    const agent = buildOf(scenario, buildName);
    const report = lintFirstRequest(agent, inputOf(scenario, inputFlagValues(scenario, parsed)));
    if (parsed.values.json === true) cli.json(report);
    else cli.print(formatLint(report, cli.style));
    return report.flagged ? EXIT.negative : EXIT.ok;
  },
};

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
