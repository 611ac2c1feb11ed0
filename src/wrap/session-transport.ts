import type { ToolSpec } from '../agent/index.js';
import type { CassetteIndex } from '../cassette/index.js';
import type { ToolResponse } from '../conversation/index.js';
import { ForkpointError, isForkpointError } from '../errors/index.js';
import type { SideEffectPolicy } from '../firewall/index.js';
import type { ReplayingTransport, ToolCall, Transport } from '../transports/index.js';
import { firewalledTransport, replayingTransport } from '../transports/index.js';
import { wrappedLiveTransport } from './wrapped-live-transport.js';

/** Where a session's answers come from: its mode's composition of transports, and the replay's findings. */
export interface SessionWorld {
  readonly transport: Transport;
  /** The replaying transport of a replay (or a fork's prefix), whose findings the run ends with. */
  readonly replaying: ReplayingTransport | undefined;
}

/** What the firewall of a session that goes past its recording needs: the tools the loop wrapped, and the policy. */
export interface SessionFirewall {
  readonly tools: () => readonly ToolSpec[];
  readonly policy: SideEffectPolicy;
}

/** A session's mode, as its transports need it. */
export type WorldPlan =
  | { readonly mode: 'record' }
  | { readonly mode: 'replay:strict'; readonly index: CassetteIndex; readonly runId: string }
  | {
      readonly mode: 'replay:fidelity';
      readonly index: CassetteIndex;
      readonly runId: string;
      readonly onMiss: 'stop' | 'live';
      readonly firewall: SessionFirewall;
    }
  | {
      readonly mode: 'fork:prefix';
      readonly index: CassetteIndex;
      readonly runId: string;
      readonly atStep: number;
      readonly answer: ToolResponse;
      readonly firewall: SessionFirewall;
    };

/**
 * A session's transports, composed as the driven modes compose theirs:
 * - `record`: the live world, side effects included (it is the original run);
 * - `replay:strict`: the recording alone; it holds no live transport, so no call can reach the world;
 * - `replay:fidelity`: the recording; a miss stops the run, or, asked by name, goes live behind the firewall;
 * - `fork:prefix`: the recording before step N (strictly: the loop must make the recorded calls), the
 *   override at step N, the live world behind the firewall after it.
 */
export function sessionWorld(plan: WorldPlan): SessionWorld {
  switch (plan.mode) {
    case 'record':
      return { transport: wrappedLiveTransport(), replaying: undefined };
    case 'replay:strict': {
      const replaying = replayingTransport({ mode: 'strict', index: plan.index, runId: plan.runId });
      return { transport: replaying, replaying };
    }
    case 'replay:fidelity': {
      const replaying =
        plan.onMiss === 'live'
          ? replayingTransport({
              mode: 'fidelity',
              onMiss: 'live',
              live: firewalled(plan.firewall, 'replay:fidelity'),
              index: plan.index,
              runId: plan.runId,
            })
          : replayingTransport({ mode: 'fidelity', onMiss: 'stop', index: plan.index, runId: plan.runId });
      return { transport: replaying, replaying };
    }
    case 'fork:prefix': {
      const prefix = replayingTransport({ mode: 'strict', index: plan.index, runId: plan.runId });
      const after = firewalled(plan.firewall, 'fork');
      const { atStep, answer, index } = plan;
      return {
        replaying: prefix,
        transport: {
          model: (call) => (call.step < atStep ? prefix.model(call) : after.model(call)),
          async tool(call: ToolCall) {
            if (call.step < atStep) return prefix.tool(call);
            if (call.step > atStep) return after.tool(call);
            // The fork's step: the loop must ask what the recording asked there, and gets the override.
            if (index.toolAnswer(call.kind, call.index, call.requestHash) === undefined) return prefix.tool(call);
            return { response: structuredClone(answer), provenance: 'override' };
          },
        },
      };
    }
  }
}

// The firewall reads the tools the loop has wrapped so far, at each call: a session learns them as it goes.
function firewalled(firewall: SessionFirewall, mode: string): Transport {
  const live = wrappedLiveTransport();
  const guarded = () => firewalledTransport({ live, tools: firewall.tools(), policy: firewall.policy, mode });
  return {
    model: (call) => live.model(call),
    async tool(call) {
      try {
        return await guarded().tool(call);
      } catch (error) {
        if (!isForkpointError(error, 'SIDE_EFFECT_BLOCKED')) throw error;
        throw new ForkpointError(
          'SIDE_EFFECT_BLOCKED',
          `${call.kind}#${call.index} (step ${call.step}) was not called: ${call.request.tool} is not read-only (or was wrapped without saying so), and a ${mode === 'fork' ? 'fork:prefix' : mode} session calls side-effecting tools only when asked by name. Allow it with createSession({ ..., sideEffects: { tools: { ${call.request.tool}: 'live' } } }) (or 'simulate', with a simulator in its session.tool options)`,
          { cause: error },
        );
      }
    },
  };
}
