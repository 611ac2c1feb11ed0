import { writeFileSync } from 'node:fs';
import { PLAINTEXT_NOTICE } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { stringOption } from '../parse-options.js';
import { formatBytes, formatTierSizes } from '../output/format-tiers.js';
import { printCommandHelp } from './help.js';

const FORMS = {
  sealed: "sealed (encrypted with the store's key for its expiry day)",
  plaintext: 'in the clear, signed by the store',
  open: 'open (no customer payloads)',
} as const;

/** `forkpoint export`: a run's cassette as a stable, diffable JSON file. */
export const exportCommand: Command = {
  name: 'export',
  summary: "write a run's cassette file (versioned JSON, sorted keys, one entry per position)",
  usage: '<run-id> [--tier full|structural] [--plaintext] [-o FILE] [--json]',
  options: {
    output: { type: 'string', short: 'o', value: 'FILE', description: 'write to FILE (default: stdout)' },
    tier: {
      type: 'string',
      value: 'full|structural',
      description:
        "full: every payload, sealed with the store's key (default); structural: the run's shape, kept 90 days",
    },
    plaintext: {
      type: 'boolean',
      description:
        'write a full tier in the clear (signed, not encrypted): a copy of customer payloads no program can recall',
    },
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const runId = cli.runIdArgument(parsed, 'forkpoint export 9b40c1d5 -o incident.cassette.json');
    const file = stringOption(parsed, 'output');
    const tier = stringOption(parsed, 'tier') ?? 'full';
    if (tier !== 'full' && tier !== 'structural')
      throw new ForkpointError('USAGE', `--tier must be full or structural, got "${tier}"`);
    const plaintext = parsed.values.plaintext === true;
    if (plaintext && tier !== 'full')
      throw new ForkpointError(
        'USAGE',
        '--plaintext applies to the full tier: a structural file holds no payloads and is written in the clear already',
      );
    return withStore(cli.openStoreHolding(parsed, runId, 'read'), async (open) => {
      const engine = cli.engine(parsed, open);
      const { text, cassette, form } = await engine.exportCassette(runId, { tier, plaintext });
      if (file === undefined) {
        cli.print(text);
        return EXIT.ok;
      }
      try {
        writeFileSync(file, text);
      } catch (error) {
        throw new ForkpointError('USAGE', `cannot write ${file} (${(error as Error).message})`, { cause: error });
      }
      const sizes = await engine.tierSizes(runId);
      const summary = {
        mode: 'export',
        runId,
        file,
        tier: cassette.tier ?? 'full',
        form,
        expiresAt: cassette.expiresAt ?? null,
        entries: cassette.entries.length,
        bytes: Buffer.byteLength(text),
        tiers: sizes,
      };
      if (parsed.values.json === true) cli.json(summary);
      else {
        cli.print(
          `export · run ${runId} · ${summary.tier} tier, ${FORMS[form]} · ${summary.entries} entries, ${formatBytes(summary.bytes)} · ${file}`,
        );
        if (form === 'plaintext') cli.note(`forkpoint: ${file} is ${PLAINTEXT_NOTICE}`);
        cli.print(`  ${formatTierSizes(sizes)}`);
      }
      return EXIT.ok;
    });
  },
};
