import type { AgentBuild } from '../agent/index.js';
import type { ToolDefinition } from '../conversation/index.js';
import { deepFreeze } from '../json/index.js';

// One per build, frozen: see toolDefinitionsOf.
const toolDefinitionCache = new WeakMap<AgentBuild, readonly ToolDefinition[]>();

/**
 * The tools as the model sees them: one deep-frozen copy per build, so that every request of every run
 * of the build shares it, and hashing and storing it is done once (frozen values' encodings are kept).
 */
export function toolDefinitionsOf(build: AgentBuild): readonly ToolDefinition[] {
  let definitions = toolDefinitionCache.get(build);
  if (definitions === undefined) {
    const copies: ToolDefinition[] = build.tools.map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema: structuredClone(inputSchema),
    }));
    definitions = deepFreeze(copies);
    toolDefinitionCache.set(build, definitions);
  }
  return definitions;
}
