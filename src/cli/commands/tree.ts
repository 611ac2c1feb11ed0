import { assertRunId, createEngine } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
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
    const [runId, extra] = parsed.positionals;
    if (runId === undefined || extra !== undefined) throw new ForkpointError('USAGE', 'tree takes one run id, e.g. `forkpoint tree 9b40c1d5`');
    assertRunId(runId);
    const store = cli.openExistingStore(parsed);
    if (store === undefined) throw new ForkpointError('RUN_NOT_FOUND', `no run ${runId}: there is no database at ${cli.dbPath(parsed)} yet`);
    return withStore(store, (open) => {
      const lineage = createEngine({ store: open }).lineage(runId);
      if (parsed.values.json === true) cli.json({ mode: 'tree', runId, ...lineage });
      else cli.print(formatLineage(lineage, cli.style));
      return EXIT.ok;
    });
  },
};
