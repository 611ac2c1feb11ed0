import type { ToolSpec } from '../agent/index.js';
import type { ToolResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { SideEffectPolicy } from '../firewall/index.js';
import { choiceFor } from '../firewall/index.js';
import { assertJsonValue } from '../json/index.js';
import type { Answered, ToolCall, Transport } from './transport.js';

/** Options of {@link firewalledTransport}. */
export interface FirewallOptions {
  /** Where read-only calls, model calls and allowed side effects go. */
  readonly live: Transport;
  /** The build's tool specs: whether each tool is read-only, and its simulator. */
  readonly tools: readonly ToolSpec[];
  readonly policy: SideEffectPolicy;
  /** The run's mode, for messages (`fork`, `reexecution`, ...). */
  readonly mode: string;
}

/**
 * The side-effect firewall, for every mode that goes past a recording against
 * a world (fork, re-execution, fidelity replay going live, resume). A call to
 * a tool the build does not declare read-only is never made live unless the
 * policy names that choice: by default it stops the run with
 * `SIDE_EFFECT_BLOCKED`; `simulate` lets the tool's simulator answer (provenance
 * `simulated`); `live` calls the real tool and marks the step as a side effect.
 * A tool the build does not declare at all is treated as side-effecting: the
 * firewall cannot know that calling it is harmless.
 */
export function firewalledTransport(options: FirewallOptions): Transport {
  const specs = new Map(options.tools.map((tool) => [tool.name, tool]));
  return {
    model: (call) => options.live.model(call),
    // A person's answer changes nothing in the world: the call it approves still meets the firewall when it is made.
    approval: (call) => options.live.approval?.(call) ?? Promise.resolve(undefined),
    async tool(call: ToolCall): Promise<Answered<ToolResponse>> {
      const spec = specs.get(call.request.tool);
      if (spec?.readOnly === true) return options.live.tool(call);
      const choice = choiceFor(options.policy, call.request.tool);
      if (choice === 'live') return { ...(await options.live.tool(call)), sideEffect: true };
      if (choice === 'simulate' && spec?.simulate !== undefined)
        return { response: { output: simulate(spec, spec.simulate, call), isError: false }, provenance: 'simulated' };
      throw blocked(call, spec, choice, options.mode);
    },
  };
}

function simulate(
  spec: ToolSpec,
  simulator: NonNullable<ToolSpec['simulate']>,
  call: ToolCall,
): ToolResponse['output'] {
  let output: unknown;
  try {
    output = simulator({ input: structuredClone(call.request.input), step: call.step, index: call.index });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ForkpointError(
      'AGENT_CODE_FAILED',
      `the simulator of ${spec.name} threw at ${call.kind}#${call.index} (step ${call.step}): ${reason}`,
      { cause: error },
    );
  }
  assertJsonValue(
    output,
    `the simulated output of ${call.kind}#${call.index} (step ${call.step})`,
    'AGENT_CODE_FAILED',
  );
  return output;
}

const RUN_NOUNS: Readonly<Record<string, string>> = {
  fork: 'fork',
  reexecution: 're-execution',
  'replay:fidelity': 'fidelity replay going live',
  resume: 'resumed run',
};

function blocked(
  call: ToolCall,
  spec: ToolSpec | undefined,
  choice: 'refuse' | 'simulate',
  mode: string,
): ForkpointError {
  const tool = call.request.tool;
  const what =
    spec === undefined
      ? `${tool} is not a tool the build declares, so the firewall cannot know that calling it is harmless`
      : choice === 'simulate'
        ? `${tool} is not read-only and its spec has no simulator to answer in its place`
        : `${tool} is not read-only, and a ${RUN_NOUNS[mode] ?? `${mode} run`} calls side-effecting tools only when asked by name`;
  return new ForkpointError(
    'SIDE_EFFECT_BLOCKED',
    `${call.kind}#${call.index} (step ${call.step}) was not called: ${what}. The run stops here with every step before it kept; ` +
      `allow it with --side-effects ${tool}=simulate or ${tool}=live (library: sideEffects: { tools: { ${tool}: 'live' } }), then \`forkpoint resume\` the run`,
  );
}
