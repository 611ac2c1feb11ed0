import type { AgentBuild } from '../agent/index.js';
import type { ModelRequest } from '../conversation/index.js';
import type { AgentContext } from '../machine/index.js';
import { toolDefinitionsOf } from './tool-definitions.js';

/**
 * The model request a run in `context` makes next: its model, system prompt
 * and conversation, with the build's tools and parameters. The one place it
 * is built, so that what the lint inspects is what the driver sends.
 */
export function modelRequestOf(build: AgentBuild, context: AgentContext): ModelRequest {
  return {
    model: context.model,
    system: context.system,
    messages: context.messages,
    tools: toolDefinitionsOf(build),
    params: build.params,
  };
}
