import { Command } from '@commander-js/extra-typings';
import type { Lineage, RunSummary } from '../../engine/index.js';
import { treeDocument } from '../../web/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { pricesOption, withCommonOptions } from '../options/common-options.js';
import { runIdValue } from '../options/value-parsers.js';
import { formatLineage } from '../output/format-lineage.js';
import { summarizersFor } from './scenario-of-run.js';

/** `forkpoint tree`: where a run came from, and every fork, replay and re-execution made from it. */
export function treeCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('tree')
      .description("show a run's lineage: its parent chain and every fork, replay and re-execution made from it")
      .usage('<run-id> [--prices FILE] [--json]')
      .argument('<run-id>', 'the run, e.g. 9b40c1d5', runIdValue)
      .addOption(pricesOption()),
  ).action(async (runId, options) => {
    await withStore(await cli.openStoreHolding(options, runId, 'read'), async (open) => {
      const lineage = await treeDocument(cli.engine(options, open), runId);
      if (options.json === true) cli.json(lineage);
      else {
        const runs = [...lineage.ancestors, ...descendants(lineage.tree)];
        const summarizerOf = await summarizersFor(runs.map((run) => run.scenario));
        cli.print(formatLineage(lineage, cli.style, (run) => summarizerOf(run.scenario)));
      }
    });
    cli.exit(EXIT.ok);
  });
}

function descendants(node: Lineage['tree']): RunSummary[] {
  return [node.run, ...node.children.flatMap(descendants)];
}
