import type { AgentBuild } from '../agent/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonObject } from '../json/index.js';
import { assertJsonValue } from '../json/index.js';
import type { AgentMachine, BuildStateRecord } from '../machine/index.js';
import { createAgentMachine, initialSnapshot } from '../machine/index.js';
import type { AgentSnapshot } from './drive-types.js';
import type { EngineDeps } from './engine-deps.js';

const machines = new WeakMap<AgentBuild, AgentMachine>();

/** The machine of a build, created once per build. */
export function machineOf(build: AgentBuild): AgentMachine {
  let machine = machines.get(build);
  if (machine === undefined) machines.set(build, (machine = createAgentMachine(build)));
  return machine;
}

/**
 * Checkpoint 0 of a new run: the build's prompt resolved against the injected
 * clock and randomness, and its first message written from the input.
 */
export function startSnapshot(
  build: AgentBuild,
  input: JsonObject,
  deps: Pick<EngineDeps, 'clock' | 'random'>,
): AgentSnapshot {
  let system: string;
  let firstMessage: string;
  try {
    system =
      typeof build.systemPrompt === 'string'
        ? build.systemPrompt
        : build.systemPrompt({ now: deps.clock(), random: deps.random });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ForkpointError(
      'AGENT_CODE_FAILED',
      `the system prompt function of build ${build.build} threw: ${reason}`,
      { cause: error },
    );
  }
  try {
    firstMessage = build.renderInput(input);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ForkpointError('INPUT_INVALID', `build ${build.build} cannot start a run on this input: ${reason}`, {
      cause: error,
    });
  }
  if (typeof system !== 'string' || typeof firstMessage !== 'string') {
    throw new ForkpointError(
      'AGENT_CODE_FAILED',
      `build ${build.build}'s ${typeof system !== 'string' ? 'system prompt function' : 'renderInput hook'} must return a string`,
    );
  }
  const buildState = initialBuildState(build, input);
  return initialSnapshot(machineOf(build), {
    input,
    system,
    model: build.model,
    firstMessage,
    ...(buildState === undefined ? {} : { buildState }),
  });
}

// The build's state at checkpoint 0, from its own `initial`; none for a build that keeps none.
function initialBuildState(build: AgentBuild, input: JsonObject): BuildStateRecord | undefined {
  const spec = build.state;
  if (spec === undefined) return undefined;
  let value: unknown;
  try {
    value = spec.initial(structuredClone(input));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ForkpointError('AGENT_CODE_FAILED', `the initial state of build ${build.build} threw: ${reason}`, {
      cause: error,
    });
  }
  assertJsonValue(value, `the initial state of build ${build.build}`, 'AGENT_CODE_FAILED');
  return { version: spec.version, value };
}
