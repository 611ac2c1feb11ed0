import { canonicalJson, sha256Hex } from '../json/index.js';
import type { JsonObject } from '../json/index.js';
import type { AgentDefinition } from './agent-definition.js';

const sourceOf = (hook: ((...args: never[]) => unknown) | undefined): string | null =>
  hook === undefined ? null : hook.toString();

const optionalSource = (name: string, hook: ((...args: never[]) => unknown) | undefined): JsonObject =>
  hook === undefined ? {} : { [name]: hook.toString() };

/**
 * The hash of a build's code: everything that decides what the agent asks and
 * how it judges what it gets back. Function hooks are hashed by their source
 * text, so values they capture from outside are invisible to it; such builds
 * set `codeVersion`.
 */
export function codeHashOf(definition: AgentDefinition): string {
  const material: JsonObject = {
    name: definition.name,
    build: definition.build,
    systemPrompt:
      typeof definition.systemPrompt === 'string' ? definition.systemPrompt : definition.systemPrompt.toString(),
    model: definition.model,
    params: { ...definition.params },
    // A simulator is the agent's own code too; a spec without one hashes as it always did.
    tools: definition.tools.map(({ simulate, ...tool }) => (simulate === undefined ? { ...tool } : { ...tool, simulate: simulate.toString() })),
    hooks: {
      renderInput: sourceOf(definition.renderInput),
      guardToolResult: sourceOf(definition.guardToolResult),
      parseOutcome: sourceOf(definition.parseOutcome),
      validateOutcome: sourceOf(definition.validateOutcome),
      // Hooks added later join the hash only when a build defines them, so older builds keep their hashes.
      ...optionalSource('retryTool', definition.retryTool),
      ...optionalSource('renderToolResult', definition.renderToolResult),
    },
    stepCap: definition.stepCap,
    ...(definition.toolResultTurns === undefined ? {} : { toolResultTurns: definition.toolResultTurns }),
    codeVersion: definition.codeVersion ?? null,
  };
  return sha256Hex(canonicalJson(material), 16);
}
