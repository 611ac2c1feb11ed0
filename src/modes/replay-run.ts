import type { AgentBuild } from '../agent/index.js';
import type { Cassette } from '../cassette/index.js';
import { CassetteIndex } from '../cassette/index.js';
import type { EngineDeps } from '../driver/index.js';
import { guardedWorld } from '../driver/index.js';
import type { SideEffectOption } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import { tierOfCopy } from '../read/index.js';
import type { ReplayingTransport } from '../transports/index.js';
import { replayingTransport } from '../transports/index.js';
import type { World } from '../world/index.js';
import type { ReplayResult } from './mode-results.js';
import type { ReplaySource } from './replay-over-cassette.js';
import { findingsOf, replayOverCassette, replayRunId } from './replay-over-cassette.js';
import { structuralReplayRun } from './structural-replay-run.js';

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
  /**
   * Whether the replay is written to the store (default true). False runs and
   * judges it without writing a row: a suite's replays that nobody will read.
   */
  readonly keep?: boolean;
} & (
  | { readonly mode: 'strict' }
  | { readonly mode: 'structural' }
  | { readonly mode: 'fidelity'; readonly onMiss?: 'stop' }
  | {
      readonly mode: 'fidelity';
      readonly onMiss: 'live';
      /** The live world after the first miss: the recording's, as its cassette's source describes it (`worldAt`, `seed`). */
      readonly world: World;
      /** What the steps after the first miss do with calls to tools that are not read-only (default `refuse`). */
      readonly sideEffects?: SideEffectOption;
    }
);

/**
 * Re-executes a build from step 0 over a cassette. Every answer comes from the
 * recording at `kind:index:hash` and is marked `recorded`. Strict mode never
 * reaches a live model or tool: its transport has none. Fidelity mode reports
 * every divergence, and either stops at the first or goes live from there
 * behind the side-effect firewall. A structural replay is its own mode (see
 * `structuralReplayRun`). A replay is stored in one transaction when it ends,
 * or, with `keep` false, not at all.
 *
 * A divergence is returned, not thrown: the result has status `diverged` (or,
 * in fidelity mode going live, the status the live run ended with) and its
 * `divergence` is a `ReplayDivergence`. What throws is a replay that
 * cannot start: `CASSETTE_INVALID` (another agent, another canonical form,
 * the wrong tier), `CASSETTE_EXPIRED`, `USAGE` (a malformed run id).
 */
export async function replayRun(deps: EngineDeps, options: ReplayOptions): Promise<ReplayResult> {
  const { agent, cassette } = options;
  const source: ReplaySource = {
    cassette,
    keep: options.keep ?? true,
    ...(options.cassetteFile === undefined ? {} : { cassetteFile: options.cassetteFile }),
    ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
    ...(options.runId === undefined ? {} : { runId: options.runId }),
  };
  if (options.mode === 'structural') return structuralReplayRun(deps, agent, source);
  const runId = replayRunId(deps, source, agent, false);
  const index = new CassetteIndex(cassette);
  // Only a fidelity replay going live meets the world, and it meets it behind the firewall.
  const live =
    options.mode === 'fidelity' && options.onMiss === 'live'
      ? { world: options.world, policy: resolveSideEffectPolicy(options.sideEffects, agent.tools) }
      : null;
  const transport: ReplayingTransport =
    options.mode === 'strict'
      ? replayingTransport({ mode: 'strict', index, runId })
      : live === null
        ? replayingTransport({ mode: 'fidelity', onMiss: 'stop', index, runId })
        : replayingTransport({
            mode: 'fidelity',
            onMiss: 'live',
            index,
            runId,
            live: guardedWorld(live.world, agent, live.policy, 'replay:fidelity'),
          });
  return replayOverCassette(deps, source, runId, {
    mode: options.mode === 'strict' ? 'replay:strict' : 'replay:fidelity',
    agent,
    tier: tierOfCopy(cassette),
    sideEffects: live?.policy ?? null,
    transport,
    judge: (result) => ({ result, findings: findingsOf(result, transport) }),
    // A recorded call the build no longer makes may be the fix working: the outcome is compared instead.
    divergenceAmong: (findings) => findings.find((finding) => finding.classification !== 'dropped-call'),
  });
}
