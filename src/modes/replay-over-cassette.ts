import type { AgentBuild } from '../agent/index.js';
import { ReplayDivergence } from '../analysis/index.js';
import type { Cassette } from '../cassette/index.js';
import { CANONICAL_FORM, RequestHasher } from '../cassette/index.js';
import type { DriveResult, EngineDeps } from '../driver/index.js';
import {
  FROM_INPUT,
  assertRunId,
  bufferedSink,
  discardingSink,
  executeRun,
  newRunRecord,
  ownerCheck,
  startSnapshot,
} from '../driver/index.js';
import { ForkpointError } from '../errors/index.js';
import type { SideEffectPolicy } from '../firewall/index.js';
import { withFields } from '../json/index.js';
import { requireUnexpiredCassette, summarizeRun, withSteps } from '../read/index.js';
import { STRUCTURAL_FORM } from '../tiers/index.js';
import type { ReplayingTransport } from '../transports/index.js';
import type { Divergence, Tier } from '../vocabulary/index.js';
import type { ReplayResult } from './mode-results.js';
import { requireDriven } from './require-driven.js';
import { stepCollector } from './step-collector.js';

/** Where a replay's answers come from, and where it is stored. */
export interface ReplaySource {
  readonly cassette: Cassette;
  /** The file the cassette came from, when it did not come from the database. */
  readonly cassetteFile?: string;
  readonly scenario?: string;
  /** Default: minted by the engine. */
  readonly runId?: string;
  /** False for a replay nobody will read (a suite's): it is run, judged and not stored. */
  readonly keep: boolean;
}

/** What one kind of replay makes of a drive over a cassette: the parts that differ between them. */
export interface ReplayPlan {
  readonly mode: ReplayResult['mode'];
  /** The build as this replay runs it. */
  readonly agent: AgentBuild;
  readonly tier: Tier;
  readonly sideEffects: SideEffectPolicy | null;
  readonly transport: ReplayingTransport;
  /** The drive as stored, and the findings stored with it. */
  judge(result: DriveResult): { readonly result: DriveResult; readonly findings: readonly Divergence[] };
  /** Which of the findings is the replay's divergence, if any. */
  divergenceAmong(findings: readonly Divergence[]): Divergence | undefined;
}

/**
 * The run id a replay is stored under, once the cassette is known to fit the
 * build and the replay kind: a replay that cannot start throws before it has
 * made anything.
 */
export function replayRunId(
  deps: EngineDeps,
  source: Omit<ReplaySource, 'keep'>,
  agent: AgentBuild,
  structural: boolean,
): string {
  const { cassette } = source;
  // Before the agent's name is compared: a wrapped loop's cassette fits no driven build, whichever agent it is.
  requireDriven(cassette, 'replay');
  checkCassetteFits(cassette, agent, structural);
  requireUnexpiredCassette(cassette, source.cassetteFile ?? `of run ${cassette.source.runId}`, deps.clock());
  const runId = source.runId ?? deps.newRunId();
  assertRunId(runId);
  return runId;
}

/**
 * Runs a replay plan from step 0 over its cassette. A replay is cheap to redo,
 * so it is stored in one transaction when it ends (or, unkept, not at all).
 * Its steps are the ones it made, as it made them; its divergence is returned,
 * not thrown: a divergence is an expected outcome, and the caller may throw it.
 */
export async function replayOverCassette(
  deps: EngineDeps,
  source: ReplaySource,
  runId: string,
  plan: ReplayPlan,
): Promise<ReplayResult> {
  const { cassette } = source;
  const { agent } = plan;
  let findings: readonly Divergence[] = [];
  const collected = stepCollector();
  const { stored } = await executeRun(deps, {
    run: await newRunRecord(deps, agent, {
      runId,
      mode: plan.mode,
      tier: plan.tier,
      expiresNoLaterThan: cassette.expiresAt ?? null,
      scenario: source.scenario ?? cassette.source.scenario,
      input: cassette.source.input,
      worldAt: cassette.source.worldAt,
      seed: cassette.source.seed,
      sourceRunId: cassette.source.runId,
      sourceCassette: source.cassetteFile ?? null,
      sideEffects: plan.sideEffects,
    }),
    agent,
    start: startSnapshot(agent, cassette.source.input, deps),
    hasher: new RequestHasher(),
    transport: plan.transport,
    sink: source.keep
      ? bufferedSink(deps.store, { mintRunId: source.runId === undefined ? deps.newRunId : null })
      : discardingSink(),
    origin: FROM_INPUT,
    ending: {
      kind: 'judged',
      judge: (result) => {
        const judged = plan.judge(nobodyToAsk(result));
        findings = judged.findings;
        return judged;
      },
    },
    watcher: collected.watcher,
  });
  const prices = await deps.prices(stored.scenario);
  // A replay is never left waiting: the cassette answers every approval it recorded, and a miss is a divergence.
  const view = withSteps(summarizeRun(stored, ownerCheck(deps), prices), collected.steps, prices, null);
  const first = plan.divergenceAmong(findings);
  // The findings just stored, as the transport typed them (a replay's own are never shaped), in their place.
  return withFields(view, {
    findings,
    divergence: first === undefined ? null : new ReplayDivergence(stored.runId, first),
  }) as ReplayResult;
}

/**
 * A replay is written whole and asks nobody: one that went live and met a
 * call needing a person's approval, with no answer recorded for it, stops
 * there (`APPROVAL_REQUIRED`) instead of waiting for someone who will not come.
 */
function nobodyToAsk(result: DriveResult): DriveResult {
  if (!result.waitingForApproval) return result;
  const step = result.snapshot.context.step + 1;
  const error = new ForkpointError(
    'APPROVAL_REQUIRED',
    `step ${step} needs a person's approval the recording holds no answer for, and a replay asks nobody: record the run, or fork it there and answer with \`forkpoint approve\``,
  );
  return {
    ...result,
    waitingForApproval: false,
    stoppedBy: { failure: { code: error.code, message: error.message, step }, error },
  };
}

/**
 * What a replay found: every miss, and the recorded calls it never made, unless
 * a divergence stopped it (entries after it were never reached: they are not
 * dropped calls).
 */
export function findingsOf(result: DriveResult, transport: ReplayingTransport): readonly Divergence[] {
  return [...transport.divergences(), ...(result.stoppedBy === null ? transport.droppedCalls() : [])];
}

function checkCassetteFits(cassette: Cassette, agent: AgentBuild, structural: boolean): void {
  const isStructural = cassette.canonicalForm === STRUCTURAL_FORM;
  if (structural !== isStructural) {
    const { runId } = cassette.source;
    throw structural
      ? new ForkpointError(
          'CASSETTE_INVALID',
          `a structural replay needs a structural cassette; this one is ${cassette.tier ?? 'full'}`,
          { details: { runId, remedy: { kind: 'structural-cassette', runId } } },
        )
      : new ForkpointError('CASSETTE_INVALID', 'this is a structural cassette', {
          details: { runId, remedy: { kind: 'replay-structural' } },
        });
  }
  if (cassette.agent.name !== agent.name) {
    throw new ForkpointError(
      'CASSETTE_INVALID',
      `the cassette records agent ${cassette.agent.name}, but build ${agent.build} belongs to agent ${agent.name}; replay it with a build of ${cassette.agent.name}`,
    );
  }
  if (!isStructural && cassette.canonicalForm !== CANONICAL_FORM) {
    throw new ForkpointError(
      'CASSETTE_INVALID',
      `the cassette was hashed in canonical form ${cassette.canonicalForm}; this forkpoint hashes in ${CANONICAL_FORM}, so no request could match`,
    );
  }
}
