import { ForkpointError } from '../errors/index.js';
import type { AgentBuild, AgentDefinition } from './agent-definition.js';
import { codeHashOf } from './code-hash.js';

const NAME = /^[a-z0-9][a-z0-9._-]*$/;
// Step kinds forkpoint itself uses: a tool of either name could not be told from them.
const RESERVED: ReadonlySet<string> = new Set(['model', 'approval']);

/**
 * Declares one build of an agent and computes its code hash.
 *
 * @example
 * ```ts
 * const baseline = defineAgent({
 *   name: 'claims-triage',
 *   build: 'baseline',
 *   systemPrompt: 'You triage insurance claims...',
 *   model: 'claude-opus-5',
 *   params: { maxTokens: 2048 },
 *   tools: [fetchClaimSpec, ocrDocumentSpec],
 *   stepCap: 24,
 *   renderInput: (input) => `Triage claim ${String(input.claimId)}.`,
 *   parseOutcome: parseDecision,
 *   validateOutcome: checkPayout,
 * });
 * ```
 */
export function defineAgent(definition: AgentDefinition): AgentBuild {
  for (const [label, value] of [
    ['agent name', definition.name],
    ['build name', definition.build],
  ] as const) {
    if (!NAME.test(value)) {
      throw new ForkpointError(
        'INPUT_INVALID',
        `${label} "${value}" must be lowercase letters, digits, ".", "_" or "-"`,
      );
    }
  }
  if (!Number.isInteger(definition.stepCap) || definition.stepCap < 1) {
    throw new ForkpointError('INPUT_INVALID', `stepCap must be a positive integer, got ${definition.stepCap}`);
  }
  const names = new Set<string>();
  for (const tool of definition.tools) {
    if (RESERVED.has(tool.name) || names.has(tool.name)) {
      throw new ForkpointError(
        'INPUT_INVALID',
        `tool name "${tool.name}" is reserved or used twice in build ${definition.build}`,
      );
    }
    names.add(tool.name);
  }
  return Object.freeze({ ...definition, codeHash: codeHashOf(definition) });
}
