import { Command, Option } from '@commander-js/extra-typings';
import { readReportContents, renderReport, stepSummaryIn } from '../../web/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { pricesOption, withCommonOptions } from '../options/common-options.js';
import { runIdOption, runIdValue } from '../options/value-parsers.js';
import { formatBytes } from '../output/format-tiers.js';
import { runWordsFor } from '../run-words.js';
import { writeWholeFile } from '../write-whole-file.js';

/**
 * `forkpoint report`: one self-contained HTML file of a run, and of its
 * comparison with another when asked, to attach to an incident ticket. It
 * only reads the store; the file is written whole or not at all.
 */
export function reportCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('report')
      .description(
        'write one self-contained HTML file of a run (and its comparison with another): no network, opens from file://',
      )
      .usage('<run-id> [--compare OTHER] [-o FILE] [--prices FILE] [--json]')
      .argument('<run-id>', 'the run, e.g. 9b40c1d5', runIdValue)
      .addOption(runIdOption('--compare <OTHER>', 'also compare the run with this one, step by step'))
      .addOption(new Option('-o, --output <FILE>', 'the file to write (default forkpoint-report-<run-id>.html)'))
      .addOption(pricesOption()),
  ).action(async (runId, options) => {
    const file = options.output ?? `forkpoint-report-${runId}.html`;
    await withStore(await cli.openStoreHolding(options, runId, 'read'), async (open) => {
      const engine = cli.engine(options, open);
      const contents = await readReportContents(engine, runId, options.compare, stepSummaryIn(runWordsFor));
      const words = await runWordsFor([contents.run.scenario, ...contents.tree.ancestors.map((run) => run.scenario)]);
      const text = renderReport(contents, words, options.now ?? new Date()).markup;
      writeWholeFile(file, text);
      const summary = {
        mode: 'report',
        runId,
        compare: options.compare ?? null,
        file,
        bytes: Buffer.byteLength(text),
        steps: contents.run.steps.length,
        tier: contents.run.retention.expired ? 'expired' : contents.run.retention.tier,
      };
      if (options.json === true) cli.json(summary);
      else
        cli.print(
          `report · run ${runId} (${contents.run.mode})${options.compare === undefined ? '' : ` compared with ${options.compare}`} · ${summary.steps} steps, ${contents.run.retention.expired ? 'full tier expired: no payloads' : `${summary.tier} tier`} · ${formatBytes(summary.bytes)} · ${file}`,
        );
    });
    cli.exit(EXIT.ok);
  });
}
