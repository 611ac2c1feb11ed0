import { statSync } from 'node:fs';
import { Command } from '@commander-js/extra-typings';
import { ForkpointError } from '../../errors/index.js';
import { parseStoreUrl } from '../../store/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { formatBytes } from '../output/format-tiers.js';

/**
 * `forkpoint gc`: enforces retention in storage. Full-tier payloads past
 * their 72 hours leave the database file (their rows and blobs are deleted,
 * the freed pages zeroed and returned, the log truncated); each run keeps
 * its summary and a structural record for 90 days.
 */
export function gcCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('gc')
      .description('remove expired tiers from storage: full payloads after 72 hours, structural records after 90 days')
      .usage('[--now TIMESTAMP] [--json]'),
  ).action(async (options) => {
    const path = cli.dbLabel(options);
    const target = parseStoreUrl(cli.dbPath(options));
    // A server's files are not this process's to measure: a PostgreSQL store reports no file sizes.
    const fileBytes = (): number | null => (target.kind === 'sqlite' ? sizeOf(target.path) : null);
    const store = await cli.openExistingStore(options, 'write');
    if (store === undefined)
      throw new ForkpointError(
        'RUN_NOT_FOUND',
        `there is no ${cli.missingStore(cli.dbPath(options))}; nothing to collect`,
        {
          details: { path },
        },
      );
    const bytesBefore = fileBytes();
    const report = await withStore(store, async (open) => await cli.engine(options, open).gc());
    const bytesAfter = fileBytes();
    cli.exit(EXIT.ok);
    if (options.json === true) {
      cli.json({ mode: 'gc', ...report, file: { path, bytesBefore, bytesAfter } });
      return;
    }
    const lines = [`gc · ${report.now} · ${path}`];
    if (report.purged.length === 0) lines.push('  no full tier has expired');
    for (const run of report.purged) {
      const kept =
        run.structuralUntil === null ? 'summary kept' : `summary and structural tier kept until ${run.structuralUntil}`;
      lines.push(`  removed full tier of ${run.runId} (expired ${run.expiredAt}): ${run.steps} steps; ${kept}`);
    }
    for (const runId of report.structuralRemoved)
      lines.push(`  removed structural tier of ${runId} (expired); summary kept`);
    lines.push(`  ${report.blobs} payload blobs removed`);
    if (bytesBefore !== null && bytesAfter !== null)
      lines.push(`  database file ${formatBytes(bytesBefore)} -> ${formatBytes(bytesAfter)}`);
    cli.print(lines.join('\n'));
  });
}

function sizeOf(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}
