import { compareRuns } from '../../analysis/index.js';
import { assertRunId } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatComparison } from '../output/format-comparison.js';
import { summarizeStep } from '../output/summarize-step.js';
import { printCommandHelp } from './help.js';
import { scenarioIfLoadable } from './scenario-of-run.js';

/** `forkpoint compare`: two runs side by side, where they first part, and how each ended. */
export const compareCommand: Command = {
  name: 'compare',
  summary: 'compare two runs step by step: the first divergence and both outcomes',
  usage: '<run-a> <run-b> [--json]',
  options: {},
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const [first, second, extra] = parsed.positionals;
    if (first === undefined || second === undefined || extra !== undefined) {
      throw new ForkpointError('USAGE', 'compare takes two run ids, e.g. `forkpoint compare 9b40c1d5 1f2e3d4c`');
    }
    assertRunId(first);
    assertRunId(second);
    return withStore(cli.openStoreHolding(parsed, first, 'read'), async (open) => {
      const engine = cli.engine(parsed, open);
      const a = await engine.getRun(first);
      const b = await engine.getRun(second);
      for (const run of [a, b]) {
        if (run.retention.purge !== null) {
          throw new ForkpointError(
            'CASSETTE_EXPIRED',
            `run ${run.runId} keeps no steps to compare: its full tier was removed at ${run.retention.purge.at}; \`forkpoint show ${run.runId}\` shows its summary`,
          );
        }
      }
      const scenario = await scenarioIfLoadable(a.scenario ?? b.scenario);
      const comparison = compareRuns(a, b, (step) => summarizeStep(step, scenario));
      if (parsed.values.json === true) cli.json(comparison);
      else cli.print(formatComparison(comparison, cli.style));
      return EXIT.ok;
    });
  },
};
