import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatLineage } from '../output/format-lineage.js';
import { printCommandHelp } from './help.js';

/** `forkpoint tree`: where a run came from, and every fork, replay and re-execution made from it. */
export const treeCommand: Command = {
  name: 'tree',
  summary: "show a run's lineage: its parent chain and every fork, replay and re-execution made from it",
  usage: '<run-id> [--json]',
  options: {},
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const runId = cli.runIdArgument(parsed, 'forkpoint tree 9b40c1d5');
    return withStore(cli.openStoreHolding(parsed, runId, 'read'), async (open) => {
      const lineage = await cli.engine(parsed, open).lineage(runId);
      if (parsed.values.json === true) cli.json({ mode: 'tree', runId, ...lineage });
      else cli.print(formatLineage(lineage, cli.style));
      return EXIT.ok;
    });
  },
};
