import type { Finding } from '../../vocabulary/index.js';
import type { Style } from '../../text/index.js';

/**
 * A replay's findings: each divergence with its field-level diff, then the
 * recorded calls the replay never asked for, on one line.
 */
export function formatFindings(findings: readonly Finding[], style: Style): string[] {
  const lines: string[] = [];
  for (const finding of findings.filter((candidate) => candidate.classification !== 'dropped-call')) {
    lines.push(`${style.yellow('divergence')}: ${finding.message}`);
    for (const change of finding.diff) lines.push(`    ${change.path}: ${change.before} -> ${change.after}`);
  }
  const dropped = findings.filter((candidate) => candidate.classification === 'dropped-call');
  if (dropped.length > 0) {
    const calls = dropped.map((finding) => `${finding.kind}#${finding.index}`).join(', ');
    lines.push(
      `${style.dim('dropped-call')}: ${dropped.length} recorded call${dropped.length === 1 ? '' : 's'} never asked for (not a miss): ${calls}`,
    );
  }
  return lines;
}
