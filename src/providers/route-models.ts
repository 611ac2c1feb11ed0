import type { ModelRequest, ModelResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { ModelProvider } from '../world/index.js';

/**
 * One model provider over several, chosen by the requested model id: the
 * longest prefix in `routes` that the id starts with wins, so
 * `{ 'claude-': anthropic, 'gpt-': openai }` sends each request to its
 * provider. A world built on it lets a fork that changes the model (`--model`)
 * move a run from one provider to another. An id no route matches is refused
 * (`PROVIDER_REJECTED`, naming the routes), as a provider refuses a model it
 * does not serve.
 */
export function routeModels(routes: Readonly<Record<string, ModelProvider>>): ModelProvider {
  const prefixes = Object.keys(routes).sort((a, b) => b.length - a.length);
  if (prefixes.length === 0) throw new ForkpointError('USAGE', 'routeModels needs at least one route');
  const routeOf = (model: string): ModelProvider | undefined => {
    const prefix = prefixes.find((candidate) => model.startsWith(candidate));
    return prefix === undefined ? undefined : routes[prefix];
  };
  return {
    leavesOut: (request) => routeOf(request.model)?.leavesOut?.(request) ?? [],
    respond(request: ModelRequest): Promise<ModelResponse> {
      const provider = routeOf(request.model);
      if (provider === undefined) {
        return Promise.reject(
          new ForkpointError(
            'PROVIDER_REJECTED',
            `no provider serves model ${request.model}: the routes are ${prefixes.map((p) => `${p}*`).join(', ')}`,
          ),
        );
      }
      return provider.respond(request);
    },
  };
}
