import { Command, Option } from '@commander-js/extra-typings';
import { PLAINTEXT_NOTICE } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { writeWholeFile } from '../write-whole-file.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { integerOption, runIdValue } from '../options/value-parsers.js';
import { exportOtlp } from './export-otlp.js';
import { formatBytes, formatTierSizes } from '../output/format-tiers.js';

const FORMS = {
  sealed: "sealed (encrypted with the store's key for its expiry day)",
  plaintext: 'in the clear, signed by the store',
  open: 'open (no customer payloads)',
} as const;

/**
 * `forkpoint export`: a run's cassette as a stable, diffable JSON file, or with
 * `--otlp` the run as OpenTelemetry spans (see `exportOtlp`).
 */
export function exportCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('export')
      .description(
        "write a run's cassette file (versioned JSON, sorted keys, one entry per position), or with --otlp its OpenTelemetry spans",
      )
      .usage(
        '<run-id> [--tier full|structural] [--plaintext] [-o FILE] [--json]\n       <run-id> --otlp [FILE|URL] [--content reference|full] [--timeout-ms N] [--json]',
      )
      .argument('<run-id>', 'the run, e.g. 9b40c1d5', runIdValue)
      .addOption(new Option('-o, --output <FILE>', 'write to FILE (default: stdout)'))
      .addOption(
        new Option(
          '--tier <TIER>',
          "full: every payload, sealed with the store's key (default); structural: the run's shape, kept 90 days",
        ).choices(['full', 'structural'] as const),
      )
      .addOption(
        new Option(
          '--plaintext',
          'write a full tier in the clear (signed, not encrypted): a copy of customer payloads no program can recall',
        ),
      )
      .addOption(
        new Option(
          '--otlp [FILE|URL]',
          'write the run as OTLP/JSON spans (GenAI conventions): to stdout, a FILE, or POST to an OTLP/HTTP collector URL',
        ),
      )
      .addOption(
        new Option(
          '--content <CONTENT>',
          'with --otlp: reference (default) exports no payload, only request hashes; full adds the opt-in content attributes',
        ).choices(['reference', 'full'] as const),
      )
      .addOption(
        integerOption(
          '--timeout-ms <N>',
          'with --otlp URL: how long the collector may take (default 10000)',
          1,
          600_000,
        ),
      ),
  ).action(async (runId, options) => {
    const otlp = options.otlp;
    if (otlp !== undefined) {
      if (options.tier !== undefined || options.plaintext === true || options.output !== undefined)
        throw new ForkpointError(
          'USAGE',
          '--otlp writes spans, not a cassette: it takes no --tier, --plaintext or -o (give the FILE to --otlp)',
        );
      cli.exit(EXIT.ok);
      await exportOtlp(cli, options, runId, {
        target: otlp === true ? undefined : otlp,
        content: options.content ?? 'reference',
        timeoutMs: options.timeoutMs,
        json: options.json === true,
      });
      return;
    }
    if (options.content !== undefined || options.timeoutMs !== undefined)
      throw new ForkpointError('USAGE', '--content and --timeout-ms apply to an export with --otlp');
    const file = options.output;
    const tier = options.tier ?? 'full';
    const plaintext = options.plaintext === true;
    if (plaintext && tier !== 'full')
      throw new ForkpointError(
        'USAGE',
        '--plaintext applies to the full tier: a structural file holds no payloads and is written in the clear already',
      );
    cli.exit(EXIT.ok);
    await withStore(await cli.openStoreHolding(options, runId, 'read'), async (open) => {
      const engine = cli.engine(options, open);
      const { text, cassette, form } = await engine.exportCassette(runId, { tier, plaintext });
      if (file === undefined) {
        cli.print(text);
        return;
      }
      writeWholeFile(file, text);
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
      if (options.json === true) cli.json(summary);
      else {
        cli.print(
          `export · run ${runId} · ${summary.tier} tier, ${FORMS[form]} · ${summary.entries} entries, ${formatBytes(summary.bytes)} · ${file}`,
        );
        if (form === 'plaintext') cli.note(`forkpoint: ${file} is ${PLAINTEXT_NOTICE}`);
        cli.print(`  ${formatTierSizes(sizes)}`);
      }
    });
  });
}
