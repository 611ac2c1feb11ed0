import type { AgentBuild } from '../agent/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonObject } from '../json/index.js';
import { assertJsonValue, isJsonObject, sha256Hex } from '../json/index.js';
import type { SessionLoop } from './session-options.js';

/** Who a wrapped loop is, as its runs store it. */
export interface LoopIdentity {
  readonly agent: Pick<AgentBuild, 'name' | 'build' | 'codeHash'>;
  readonly input: JsonObject;
  readonly scenario: string | null;
}

/**
 * Checks what a session says of its loop (at run time: JavaScript callers
 * have no compiler) and makes it a run's identity. The code hash is the
 * caller's, or one of the agent and build: forkpoint cannot read a loop's code.
 */
export function loopIdentityOf(options: SessionLoop): LoopIdentity {
  const { agent, build = 'default', codeHash, input = {}, scenario } = options;
  if (typeof agent !== 'string' || agent.trim() === '')
    throw new ForkpointError(
      'USAGE',
      'a session needs agent: the name of the loop it wraps (every run of it shares it)',
    );
  if (typeof build !== 'string' || build === '')
    throw new ForkpointError('USAGE', "a session's build must be a non-empty string");
  if (codeHash !== undefined && (typeof codeHash !== 'string' || codeHash === ''))
    throw new ForkpointError('USAGE', "a session's codeHash must be a non-empty string");
  assertJsonValue(input, 'the session input');
  if (!isJsonObject(input)) throw new ForkpointError('INPUT_INVALID', 'the session input must be a JSON object');
  return {
    agent: { name: agent, build, codeHash: codeHash ?? sha256Hex(`wrapped loop\n${agent}\n${build}`, 16) },
    input,
    scenario: scenario ?? null,
  };
}
