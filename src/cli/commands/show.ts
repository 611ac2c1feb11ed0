import { Command } from '@commander-js/extra-typings';
import { checkpointAfter, checkpointDocumentOf, runDocument } from '../../web/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { pricesOption, withCommonOptions } from '../options/common-options.js';
import { integerOption, runIdValue } from '../options/value-parsers.js';
import { formatCheckpoint } from '../output/format-checkpoint.js';
import { formatRunCost } from '../output/format-cost.js';
import { formatRun } from '../output/format-run.js';
import { formatRetention, formatTierSizes } from '../output/format-tiers.js';
import { printPendingApproval } from './pending-approval-note.js';
import { summarizerFor } from './scenario-of-run.js';

/** `forkpoint show`: a run's steps with their provenance and what its model steps cost, or the checkpoint after one step. */
export function showCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('show')
      .description("show a run's steps and their cost, or with --step K the checkpoint after step K")
      .usage('<run-id> [--step K] [--prices FILE] [--json]')
      .argument('<run-id>', 'the run, e.g. 9b40c1d5', runIdValue)
      .addOption(
        integerOption(
          '--step <K>',
          'show the checkpoint after step K (0: before any step)',
          0,
          Number.MAX_SAFE_INTEGER,
        ),
      )
      .addOption(pricesOption()),
  ).action(async (runId, options) => {
    const { step } = options;
    await withStore(await cli.openStoreHolding(options, runId, 'read'), async (open) => {
      const engine = cli.engine(options, open);
      if (step === undefined) {
        const run = await runDocument(engine, runId);
        if (options.json === true) cli.json(run);
        else {
          cli.print(formatRun(run, cli.style, await summarizerFor(run.scenario)));
          await printPendingApproval(cli, engine, runId);
          cli.print(formatRunCost(run, cli.style).join('\n'));
          cli.print(cli.style.dim(`${formatRetention(run.retention)}\n${formatTierSizes(run.tiers)}`));
        }
        return;
      }
      const { run, checkpoint } = await checkpointAfter(engine, runId, step);
      if (options.json === true) cli.json(checkpointDocumentOf(run, step, checkpoint));
      else {
        cli.print(formatCheckpoint(run, step, checkpoint, cli.style, await summarizerFor(run.scenario)));
      }
    });
    cli.exit(EXIT.ok);
  });
}
