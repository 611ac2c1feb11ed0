import { stableJson, sha256Hex } from '../json/index.js';
import type { JsonObject } from '../json/index.js';
import type { AgentDefinition, BuildStateSpec, ToolSpec } from './agent-definition.js';
import { normalizeSource } from './normalize-source.js';

/**
 * The form of the material a code hash is taken over, hashed with it: a
 * change to what is hashed, or how, changes every hash visibly.
 */
export const CODE_HASH_FORM = 'forkpoint-code/2';

// Source as the transpiler printed it differs under tsc, tsx and vitest; the normal form does not.
const sourceOf = (hook: (...args: never[]) => unknown): string => normalizeSource(hook.toString());

const optionalSource = (name: string, hook: ((...args: never[]) => unknown) | undefined): JsonObject =>
  hook === undefined ? {} : { [name]: sourceOf(hook) };

// A spec without a simulator is hashed as it always was; fast-json-stable-stringify would leave a function out.
const toolMaterial = ({ simulate, requiresApproval, ...spec }: ToolSpec): JsonObject => ({
  ...spec,
  ...optionalSource('simulate', simulate),
  ...optionalSource('requiresApproval', requiresApproval),
});

/**
 * What a build's code hash is taken over, as canonical JSON takes it: the
 * form, names, prompt, model, params, tool specs (a simulator by its
 * source), hook source, step cap, tool-result turns, `codeVersion`, and the
 * build's state (its version and functions) when it keeps one.
 * Functions stand as their normalised source (see `normalizeSource`).
 */
export function codeMaterial(definition: AgentDefinition): JsonObject {
  return {
    codeHashForm: CODE_HASH_FORM,
    name: definition.name,
    build: definition.build,
    systemPrompt:
      typeof definition.systemPrompt === 'string' ? definition.systemPrompt : sourceOf(definition.systemPrompt),
    model: definition.model,
    params: { ...definition.params },
    tools: definition.tools.map(toolMaterial),
    hooks: {
      renderInput: sourceOf(definition.renderInput),
      guardToolResult: definition.guardToolResult === undefined ? null : sourceOf(definition.guardToolResult),
      parseOutcome: sourceOf(definition.parseOutcome),
      validateOutcome: definition.validateOutcome === undefined ? null : sourceOf(definition.validateOutcome),
      // Hooks added later join the hash only when a build defines them, so older builds keep their hashes.
      ...optionalSource('retryTool', definition.retryTool),
      ...optionalSource('renderToolResult', definition.renderToolResult),
      ...optionalSource('requiresApproval', definition.requiresApproval),
    },
    stepCap: definition.stepCap,
    ...(definition.toolResultTurns === undefined ? {} : { toolResultTurns: definition.toolResultTurns }),
    codeVersion: definition.codeVersion ?? null,
    // Only a build that keeps state hashes it, so older builds keep their hashes.
    ...(definition.state === undefined ? {} : { state: stateMaterial(definition.state) }),
  };
}

// The state's version and every function of it: a migration is the build's own code too.
function stateMaterial(state: BuildStateSpec): JsonObject {
  return {
    version: state.version,
    initial: sourceOf(state.initial),
    update: sourceOf(state.update),
    ...optionalSource('migrate', state.migrate),
    ...optionalSource('validate', state.validate),
  };
}

/**
 * The hash of a build's code: everything that decides what the agent asks and
 * how it judges what it gets back (see `codeMaterial`), sha256 in 16 hex.
 *
 * Functions are hashed by their normalised source text, so one source gives
 * one hash under tsc, tsx and vitest. The hash sees a function's own text
 * only: a constant it reads, a helper it calls or a module it imports can
 * change without changing it, so builds whose behaviour moves with such
 * values set `codeVersion`. Two things the normal form does not undo still
 * give one source two hashes: parentheses around more than one token that
 * the grammar does not need (tsc keeps them, tsx and vitest drop them), and
 * an import used under an alias or through a namespace (vitest writes it by
 * its exported name).
 */
export function codeHashOf(definition: AgentDefinition): string {
  return sha256Hex(stableJson(codeMaterial(definition)), 16);
}
