import type { PendingApproval } from '../../read/index.js';
import type { Style } from './style.js';

/**
 * The call a run waits on, and how to answer it: the tool, its call number
 * and input, and the request hash an answer is bound to (what `approve
 * --call` takes), in two lines.
 */
export function formatPendingApproval(runId: string, pending: PendingApproval, style: Style): string {
  return [
    `${style.yellow('waits for')} ${pending.tool}#${pending.callIndex} ${JSON.stringify(pending.input)} · request ${pending.requestHash} · the answer will be step ${pending.step}`,
    `  answer with \`forkpoint approve ${runId} --call ${pending.requestHash}\` (or --reject --reason TEXT)`,
  ].join('\n');
}
