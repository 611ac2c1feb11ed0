import { writeFileSync } from 'node:fs';
import { serializeCassette } from '../../cassette/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { stringOption } from '../parse-options.js';
import { formatBytes, formatTierSizes } from '../output/format-tiers.js';
import { printCommandHelp } from './help.js';

/** `forkpoint export`: a run's cassette as a stable, diffable JSON file. */
export const exportCommand: Command = {
  name: 'export',
  summary: "write a run's cassette file (versioned JSON, sorted keys, one entry per position)",
  usage: '<run-id> [--tier full|structural] [-o FILE] [--json]',
  options: {
    output: { type: 'string', short: 'o', value: 'FILE', description: 'write to FILE (default: stdout)' },
    tier: { type: 'string', value: 'full|structural', description: "full: every payload (default); structural: the run's shape, kept 90 days" },
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const runId = cli.runIdArgument(parsed, 'forkpoint export 9b40c1d5 -o incident.cassette.json');
    const file = stringOption(parsed, 'output');
    const tier = stringOption(parsed, 'tier') ?? 'full';
    if (tier !== 'full' && tier !== 'structural') throw new ForkpointError('USAGE', `--tier must be full or structural, got "${tier}"`);
    return withStore(cli.openStoreHolding(parsed, runId, 'read'), (open) => {
      const engine = cli.engine(parsed, open);
      const cassette = engine.cassette(runId, tier);
      const text = serializeCassette(cassette);
      if (file === undefined) {
        cli.print(text);
        return EXIT.ok;
      }
      try {
        writeFileSync(file, text);
      } catch (error) {
        throw new ForkpointError('USAGE', `cannot write ${file} (${(error as Error).message})`, { cause: error });
      }
      const sizes = engine.tierSizes(runId);
      const summary = {
        mode: 'export',
        runId,
        file,
        tier: cassette.tier ?? 'full',
        expiresAt: cassette.expiresAt ?? null,
        entries: cassette.entries.length,
        bytes: Buffer.byteLength(text),
        tiers: sizes,
      };
      if (parsed.values.json === true) cli.json(summary);
      else {
        cli.print(`export · run ${runId} · ${summary.tier} tier · ${summary.entries} entries, ${formatBytes(summary.bytes)} · ${file}`);
        cli.print(`  ${formatTierSizes(sizes)}`);
      }
      return EXIT.ok;
    });
  },
};
