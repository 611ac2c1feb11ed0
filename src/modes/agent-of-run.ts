import type { AgentBuild } from '../agent/index.js';
import { ForkpointError } from '../errors/index.js';
import type { RunRecord } from '../store/index.js';

/**
 * Checks that a build belongs to the agent a run recorded: continuing one
 * agent's conversation with another agent's code answers nothing (a build of
 * the same agent with another model or prompt is fine). `AGENT_MISMATCH`
 * otherwise, as replay refuses another agent's cassette.
 */
export function requireSameAgent(run: RunRecord, agent: AgentBuild, use: string): void {
  if (run.agentName === agent.name) return;
  throw new ForkpointError(
    'AGENT_MISMATCH',
    `cannot ${use} run ${run.runId} with build ${agent.build} of agent ${agent.name}: the run is agent ${run.agentName}'s (build ${run.build})`,
    { details: { runId: run.runId, remedy: { kind: 'use-agent', agent: run.agentName } } },
  );
}
