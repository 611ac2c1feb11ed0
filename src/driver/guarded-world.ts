import type { AgentBuild } from '../agent/index.js';
import type { SideEffectPolicy } from '../firewall/index.js';
import type { Transport } from '../transports/index.js';
import { firewalledTransport, liveTransport } from '../transports/index.js';
import type { World } from '../world/index.js';
import type { RunMode } from '../vocabulary/index.js';

/**
 * The live world as every mode past a recording meets it (fork, re-execution,
 * fidelity replay going live, resume): behind the side-effect firewall, so a
 * tool that is not read-only is only called for real when the policy says so
 * by name. Only `record` talks to the world directly.
 */
export function guardedWorld(
  world: World,
  agent: AgentBuild,
  policy: SideEffectPolicy,
  mode: RunMode | 'resume',
): Transport {
  return firewalledTransport({ live: liveTransport(world), tools: agent.tools, policy, mode });
}
