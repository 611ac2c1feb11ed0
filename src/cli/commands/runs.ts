import { ForkpointError } from '../../errors/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatRuns } from '../output/format-runs.js';
import { printCommandHelp } from './help.js';

/** `forkpoint runs`: every run in the database, oldest first. */
export const runsCommand: Command = {
  name: 'runs',
  summary: 'list the runs in the database',
  usage: '[--json]',
  options: {},
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    if (parsed.positionals.length > 0) throw new ForkpointError('USAGE', `runs takes no arguments, got "${parsed.positionals[0]}"`);
    const store = cli.openExistingStore(parsed, 'read');
    const runs = store === undefined ? [] : await withStore(store, (open) => cli.engine(parsed, open).listRuns());
    if (parsed.values.json === true) cli.json({ runs });
    else cli.print(formatRuns(runs, cli.style));
    return EXIT.ok;
  },
};
