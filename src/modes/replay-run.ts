import type { AgentBuild } from '../agent/index.js';
import { ReplayDivergence } from '../analysis/index.js';
import type { DriveResult } from '../driver/index.js';
import type { Cassette } from '../cassette/index.js';
import { CANONICAL_FORM, CassetteIndex, RequestHasher } from '../cassette/index.js';
import { ForkpointError } from '../errors/index.js';
import type { Divergence } from '../vocabulary/index.js';
import { STRUCTURAL_FORM } from '../tiers/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import { replayingTransport } from '../transports/index.js';
import { guardedWorld } from '../driver/index.js';
import type { ReplayingTransport } from '../transports/index.js';
import type { World } from '../world/index.js';
import type { EngineDeps } from '../driver/index.js';
import { ownerCheck } from '../driver/index.js';
import { requireUnexpiredCassette, tierOfCopy } from '../read/index.js';
import { structuralKeys } from './structural-keys.js';
import { executeRun } from '../driver/index.js';
import { newRunRecord } from '../driver/index.js';
import { stepViewer, summarizeRun } from '../read/index.js';
import { bufferedSink, discardingSink } from '../driver/index.js';
import type { StepView } from '../read/index.js';
import { startSnapshot } from '../driver/index.js';
import { assertRunId } from '../driver/index.js';
import type { ReplayResult } from './mode-results.js';

/** What `replay` needs. */
export type ReplayOptions = {
  /** The build to re-execute: the agent's current code. */
  readonly agent: AgentBuild;
  /** The recorded observations. */
  readonly cassette: Cassette;
  /** The file the cassette came from, when it did not come from the database. */
  readonly cassetteFile?: string;
  readonly scenario?: string;
  readonly runId?: string;
} & (
  | { readonly mode: 'strict' }
  | { readonly mode: 'structural' }
  | { readonly mode: 'fidelity'; readonly onMiss?: 'stop' }
  | {
      readonly mode: 'fidelity';
      readonly onMiss: 'live';
      readonly world: (seed: number) => World;
      /** What the steps after the first miss do with calls to tools that are not read-only (default `refuse`). */
      readonly sideEffects?: SideEffectOption;
    }
);

/**
 * Re-executes a build from step 0 over a cassette. Every answer comes from the
 * recording at `kind:index:hash` and is marked `recorded`. Strict mode never
 * reaches a live model or tool: its transport has none. A structural replay
 * is strict too, keyed by shape, and diverges as well when the build stops
 * before the recording did. A replay is cheap to redo, so it is stored in one
 * transaction when it ends (or, with `keep` false, not at all: a suite's
 * replays that nobody will read).
 *
 * A divergence is returned, not thrown: the result has status `diverged` (or,
 * in fidelity mode going live, the status the live run ended with) and its
 * `divergence` is a {@link ReplayDivergence}. What throws is a replay that
 * cannot start: `CASSETTE_INVALID` (another agent, another canonical form,
 * the wrong tier), `CASSETTE_EXPIRED`, `USAGE` (a malformed run id).
 */
export async function replayRun(deps: EngineDeps, options: ReplayOptions, keep = true): Promise<ReplayResult> {
  const { cassette } = options;
  const structural = options.mode === 'structural';
  checkCassetteFits(cassette, options.agent, structural);
  requireUnexpiredCassette(cassette, options.cassetteFile ?? `of run ${cassette.source.runId}`, deps.clock());
  // A shaped final turn says nothing about the outcome: a structural replay checks the trajectory only.
  const agent = structural ? withoutOutcomeJudgement(options.agent) : options.agent;
  const runId = options.runId ?? deps.newRunId();
  assertRunId(runId);
  // Only a fidelity replay going live meets the world, and it meets it behind the firewall.
  const policy =
    options.mode === 'fidelity' && options.onMiss === 'live'
      ? resolveSideEffectPolicy(options.sideEffects, agent.tools)
      : null;
  const index = new CassetteIndex(cassette);
  const steps: StepView[] = [];
  const viewOf = stepViewer();
  const transport: ReplayingTransport =
    options.mode === 'strict' || options.mode === 'structural'
      ? replayingTransport({ mode: 'strict', index, runId, ...(structural ? { keys: structuralKeys() } : {}) })
      : options.onMiss === 'live'
        ? replayingTransport({
            mode: 'fidelity',
            onMiss: 'live',
            index,
            runId,
            live: guardedWorld(options.world(cassette.source.seed ?? 0), agent, policy!, 'replay:fidelity'),
          })
        : replayingTransport({ mode: 'fidelity', onMiss: 'stop', index, runId });

  let findings: readonly Divergence[] = [];
  const { stored } = await executeRun(deps, {
    run: await newRunRecord(deps, agent, {
      runId,
      mode: structural ? 'replay:structural' : options.mode === 'strict' ? 'replay:strict' : 'replay:fidelity',
      tier: structural ? 'structural' : tierOfCopy(cassette),
      expiresNoLaterThan: cassette.expiresAt ?? null,
      scenario: options.scenario ?? cassette.source.scenario,
      input: cassette.source.input,
      worldAt: cassette.source.at,
      seed: cassette.source.seed,
      sourceRunId: cassette.source.runId,
      sourceCassette: options.cassetteFile ?? null,
      sideEffects: policy,
    }),
    agent,
    start: startSnapshot(agent, cassette.source.input, deps),
    hasher: new RequestHasher(),
    transport,
    sink: keep
      ? bufferedSink(deps.store, { mintRunId: options.runId === undefined ? deps.newRunId : null })
      : discardingSink(),
    // The replay's own steps, kept as they happen, so that the result is not read back from the store.
    onCommitted: (step) => steps.push(viewOf(step)),
    ...(structural ? { settle: (result: DriveResult) => stopAtDroppedCall(result, runId, transport) } : {}),
    // Entries after a divergence that stopped the run were never reached: they are not dropped calls.
    findings: (result) =>
      (findings = [
        ...transport.divergences(),
        ...(result.stoppedBy === null || result.stoppedBy.error instanceof DroppedCallDivergence
          ? transport.droppedCalls()
          : []),
      ]),
  });
  const { stepCount: _stepCount, ...summary } = summarizeRun(stored, ownerCheck(deps));
  // The findings just stored, as the transport typed them (a replay's own are never shaped), in their place.
  const view = { ...summary, findings, steps };
  // In a structural replay a recorded call the build never made is the divergence: the shape did not hold.
  const first = findings.find((finding) => structural || finding.classification !== 'dropped-call');
  // Returned, not thrown: a divergence is an expected outcome, and the caller may throw it.
  const divergence = first === undefined ? null : new ReplayDivergence(stored.runId, first);
  return { ...view, divergence } as ReplayResult;
}

/** A structural replay that ended before the recording did: its first unasked entry. */
class DroppedCallDivergence extends ReplayDivergence {}

// A strict replay that ends early may be the fix working (its outcome is compared instead); a structural
// replay cannot compare outcomes, so a recorded call the build never made means the trajectory did not hold.
function stopAtDroppedCall(result: DriveResult, runId: string, transport: ReplayingTransport): DriveResult {
  const first = transport.droppedCalls()[0];
  if (result.stoppedBy !== null || first === undefined) return result;
  const error = new DroppedCallDivergence(runId, first);
  return {
    ...result,
    stoppedBy: { failure: { code: 'REPLAY_DIVERGED', message: error.message, step: first.step }, error },
  };
}

/** The build with its outcome parser and checks replaced: every final turn ends the run as `{ judged: false }`. */
function withoutOutcomeJudgement(agent: AgentBuild): AgentBuild {
  const { validateOutcome: _validate, ...rest } = agent;
  return { ...rest, parseOutcome: () => ({ ok: true, outcome: { judged: false } }) };
}

function checkCassetteFits(cassette: Cassette, agent: AgentBuild, structural: boolean): void {
  const isStructural = cassette.canonicalForm === STRUCTURAL_FORM;
  if (structural !== isStructural) {
    throw new ForkpointError(
      'CASSETTE_INVALID',
      structural
        ? `a structural replay needs a structural cassette; this one is ${cassette.tier ?? 'full'}: \`forkpoint export ${cassette.source.runId} --tier structural\` writes one`
        : `this is a structural cassette: replay it with --tier structural`,
    );
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
