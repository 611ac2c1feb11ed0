import { statSync } from 'node:fs';
import { ForkpointError } from '../../errors/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatBytes } from '../output/format-tiers.js';
import { printCommandHelp } from './help.js';

/**
 * `forkpoint gc`: enforces retention in storage. Full-tier payloads past
 * their 72 hours leave the database file (their rows and blobs are deleted,
 * the freed pages zeroed and returned, the log truncated); each run keeps
 * its summary and a structural record for 90 days.
 */
export const gcCommand: Command = {
  name: 'gc',
  summary: 'remove expired tiers from storage: full payloads after 72 hours, structural records after 90 days',
  usage: '[--now TIMESTAMP] [--json]',
  options: {},
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    if (parsed.positionals.length > 0)
      throw new ForkpointError('USAGE', `gc takes no arguments, got "${parsed.positionals[0]}"`);
    const path = cli.dbPath(parsed);
    const store = cli.openExistingStore(parsed, 'write');
    if (store === undefined)
      throw new ForkpointError('RUN_NOT_FOUND', `there is no database at ${path}; nothing to collect`);
    const bytesBefore = fileBytes(path);
    const report = await withStore(store, (open) => cli.engine(parsed, open).gc());
    const bytesAfter = fileBytes(path);
    if (parsed.values.json === true) {
      cli.json({ mode: 'gc', ...report, file: { path, bytesBefore, bytesAfter } });
      return EXIT.ok;
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
    return EXIT.ok;
  },
};

function fileBytes(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}
