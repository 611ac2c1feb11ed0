import type { AgentBuild } from '../agent/index.js';
import type { ApprovalAnswer } from '../conversation/index.js';
import type { EngineDeps } from '../driver/index.js';
import { guardedWorld, isOwnerAlive, ownerCheck } from '../driver/index.js';
import { ForkpointError, isForkpointError } from '../errors/index.js';
import type { SideEffectOption, SideEffectPolicy } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import type { PendingApproval } from '../read/index.js';
import { pendingApprovalOf, readRunView, requireFullTier, requireRun } from '../read/index.js';
import type { RunRecord } from '../store/index.js';
import { liveTransport, overrideTransport } from '../transports/index.js';
import type { Transport } from '../transports/index.js';
import type { World } from '../world/index.js';
import { requireSameAgent } from './agent-of-run.js';
import { continueInPlace } from './continue-in-place.js';
import type { ApproveResult } from './mode-results.js';
import { requireSameWorld } from './world-of-run.js';

/** What `approve` needs: the run, its own build and world, and a person's answer. */
export interface ApproveOptions {
  /** The run waiting for an approval. */
  readonly runId: string;
  /** The run's own build: the answer lets its code go on. */
  readonly agent: AgentBuild;
  /** The run's own world, which the rest of the run meets (see `ResumeOptions.world`). */
  readonly world: World;
  /**
   * Default true. False rejects the call: the rejection stands as the call's
   * result, which the model sees, and the call is never made.
   */
  readonly approved?: boolean;
  /** Who answers: a user name, an email. Stored with the answer. */
  readonly by: string;
  /** Why, in their words. */
  readonly note?: string;
  /**
   * The request hash of the call the person reviewed (as `show` prints it).
   * When given, the answer applies only if the run waits for exactly that
   * call (`APPROVAL_MISMATCH` otherwise, nothing written).
   */
  readonly requestHash?: string;
  /**
   * The firewall of a fork or re-execution going on after the answer
   * (default `refuse`): an approved call to a tool that is not read-only is
   * made for real only when this names it. A recording goes on as the
   * original run it is, meeting the world as it is: it takes none.
   */
  readonly sideEffects?: SideEffectOption;
}

/** The longest answer a person's name or note may be: an answer is a step, not a document. */
const LONGEST_NAME = 200;
const LONGEST_NOTE = 4000;

// A recording meets the world as record does: every side effect is made, as the policy it goes on under says.
const RECORDING_MEETS_THE_WORLD: SideEffectPolicy = Object.freeze({ default: 'live', tools: Object.freeze({}) });

/**
 * Answers the approval a run waits for, and lets the run go on: the answer
 * (who, when, approved or rejected, why) is a step of its own, with
 * provenance `human`, bound to the request hash of the exact call it is
 * about; the run then continues in place, as a new attempt, until it ends or
 * waits again. An approved call is made only if its request still hashes so
 * (`CALL_NOT_APPROVED` otherwise), and, past a recording, only behind the
 * side-effect firewall.
 *
 * Refused before anything is written: a run that waits for no approval
 * (it runs, ended, was answered already or meanwhile): `APPROVAL_NOT_PENDING`;
 * an answer about another call: `APPROVAL_MISMATCH`; an empty name, or a
 * note or name too long: `INPUT_INVALID`; another build or world: as `resume`.
 */
export async function approveRun(deps: EngineDeps, options: ApproveOptions): Promise<ApproveResult> {
  const run = await requireRun(deps.store, options.runId);
  requireWaiting(deps, run);
  const { agent } = options;
  requireSameWorld(run, options.world);
  requireSameAgent(run, agent, 'approve');
  if (run.build !== agent.build || run.codeHash !== agent.codeHash) {
    throw new ForkpointError(
      'AGENT_MISMATCH',
      `run ${run.runId} waits under build ${run.build} (code ${run.codeHash}); build ${agent.build} (code ${agent.codeHash}) is other code. An answer lets the run's own code go on: to go on under another build, fork the run at its approval`,
      { details: { runId: run.runId } },
    );
  }
  // Checked at run time: JavaScript callers have no compiler to hold them to the two.
  const approved: unknown = options.approved ?? true;
  if (typeof approved !== 'boolean')
    throw new ForkpointError('USAGE', `approved must be true or false, got ${typeof approved}`);
  const by = checkedText(options.by, 'by', LONGEST_NAME);
  const note = options.note === undefined ? null : checkedText(options.note, 'note', LONGEST_NOTE);
  const { policy, world } = worldAfter(run, agent, options);

  await requireFullTier(deps.store, run, deps.clock(), 'approve a call of');
  const pending = await pendingApprovalOf(deps.store, run);
  if (pending === undefined) throw notPending(run, 'its last checkpoint waits for no approval');
  if (options.requestHash !== undefined && options.requestHash !== pending.requestHash) {
    throw new ForkpointError(
      'APPROVAL_MISMATCH',
      `run ${run.runId} waits for approval of ${callWords(pending)}, request ${pending.requestHash}; the answer is about request ${options.requestHash}, another call. Nothing was written: look at the call with \`forkpoint show ${run.runId}\``,
      { details: { runId: run.runId } },
    );
  }
  const answer: ApprovalAnswer = {
    approved,
    by,
    at: deps.clock().toISOString(),
    note,
    requestHash: pending.requestHash,
  };
  let resumed;
  try {
    resumed = await continueInPlace(deps, {
      run,
      agent,
      after: 'awaiting-approval',
      sideEffects: policy,
      use: 'approve a call of',
      live: (fromStep) =>
        overrideTransport({ step: fromStep, answer: { type: 'approval', answer }, live: world, provenance: 'human' }),
    });
  } catch (error) {
    // Another process answered, or resumed the run, between the read and the take-over: it won.
    if (isForkpointError(error, 'RESUME_REFUSED'))
      throw notPending(run, 'it was answered or resumed elsewhere meanwhile', error);
    throw error;
  }
  return {
    ...(await readRunView(deps.store, run.runId, ownerCheck(deps), deps.prices)),
    approval: answer,
    resumed,
  } as ApproveResult;
}

// The world the run goes on in: a recording meets it as it is; every other mode behind the firewall.
function worldAfter(
  run: RunRecord,
  agent: AgentBuild,
  options: ApproveOptions,
): { policy: SideEffectPolicy; world: Transport } {
  if (run.mode === 'record') {
    if (options.sideEffects !== undefined)
      throw new ForkpointError(
        'USAGE',
        `run ${run.runId} is a recording, which meets the world as it is: a side-effect policy applies to forks and re-executions only`,
      );
    return { policy: RECORDING_MEETS_THE_WORLD, world: liveTransport(options.world) };
  }
  const policy = resolveSideEffectPolicy(options.sideEffects, agent.tools);
  return { policy, world: guardedWorld(options.world, agent, policy, 'resume') };
}

function requireWaiting(deps: EngineDeps, run: RunRecord): void {
  switch (run.status) {
    case 'awaiting-approval':
      return;
    case 'running':
      // A run whose process died between the step that asked and the write that said so is interrupted at
      // its approval: its checkpoint says so, and the answer lets it go on as well.
      if (run.owner !== null && isOwnerAlive(deps, run.owner))
        throw notPending(run, `it is running in process ${run.owner.pid}`);
      return;
    case 'interrupted':
      return;
    default:
      throw notPending(run, statusWords(run));
  }
}

function statusWords(run: RunRecord): string {
  if (run.status === 'completed') return 'it completed';
  if (run.status === 'diverged') return 'it diverged from its recording';
  return `it ${run.status}${run.error === null ? '' : ` with ${run.error.code} at step ${run.error.step}`}`;
}

function notPending(run: RunRecord, why: string, cause?: unknown): ForkpointError {
  return new ForkpointError(
    'APPROVAL_NOT_PENDING',
    `run ${run.runId} waits for no approval: ${why}. Nothing was written; \`forkpoint show ${run.runId}\` shows its steps, an answered approval among them`,
    { details: { runId: run.runId }, ...(cause === undefined ? {} : { cause }) },
  );
}

const callWords = (pending: PendingApproval): string => `${pending.tool}#${pending.callIndex} (step ${pending.step})`;

function checkedText(value: unknown, field: string, longest: number): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new ForkpointError(
      'INPUT_INVALID',
      `${field} must name someone or something, got ${typeof value === 'string' ? 'blank text' : typeof value}`,
    );
  if (value.length > longest)
    throw new ForkpointError('INPUT_INVALID', `${field} is ${value.length} characters long; at most ${longest}`);
  // Control characters would let an answer rewrite the terminal that shows it.
  // eslint-disable-next-line no-control-regex -- the control characters are what this refuses
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(value))
    throw new ForkpointError('INPUT_INVALID', `${field} holds a control character`);
  return value;
}
