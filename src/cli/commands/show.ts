import { ForkpointError } from '../../errors/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatCheckpoint } from '../output/format-checkpoint.js';
import { formatRun } from '../output/format-run.js';
import { formatRetention, formatTierSizes } from '../output/format-tiers.js';
import { integerOption } from '../parse-options.js';
import { printCommandHelp } from './help.js';
import { scenarioIfLoadable } from './scenario-of-run.js';

/** `forkpoint show`: a run's steps with their provenance, or the checkpoint after one step. */
export const showCommand: Command = {
  name: 'show',
  summary: "show a run's steps, or with --step K the checkpoint after step K",
  usage: '<run-id> [--step K] [--json]',
  options: {
    step: { type: 'string', value: 'K', description: 'show the checkpoint after step K (0: before any step)' },
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const runId = cli.runIdArgument(parsed, 'forkpoint show 9b40c1d5');
    const step = integerOption(parsed, 'step', 0, Number.MAX_SAFE_INTEGER);
    return withStore(cli.openStoreHolding(parsed, runId, 'read'), async (open) => {
      const engine = cli.engine(parsed, open);
      if (step === undefined) {
        const run = await engine.getRun(runId);
        const tiers = await engine.tierSizes(runId);
        if (parsed.values.json === true) cli.json({ ...run, tiers });
        else {
          cli.print(formatRun(run, cli.style, await scenarioIfLoadable(run.scenario)));
          cli.print(cli.style.dim(`${formatRetention(run.retention)}\n${formatTierSizes(tiers)}`));
        }
        return EXIT.ok;
      }
      const run = await engine.getRunSummary(runId);
      if (step > run.stepCount) {
        throw new ForkpointError(
          'STEP_OUT_OF_RANGE',
          `run ${runId} has checkpoints 0 to ${run.stepCount}; there is no checkpoint after step ${step}`,
        );
      }
      const checkpoint = await engine.checkpoint(runId, step);
      if (parsed.values.json === true) {
        cli.json({ mode: run.mode, runId, step, state: checkpoint.value, context: checkpoint.context });
      } else {
        cli.print(formatCheckpoint(run, step, checkpoint, cli.style));
      }
      return EXIT.ok;
    });
  },
};
