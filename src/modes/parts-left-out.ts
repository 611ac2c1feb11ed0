import type { AgentBuild } from '../agent/index.js';
import type { MessagePart } from '../conversation/index.js';
import type { AgentSnapshot } from '../driver/index.js';
import { modelRequestOf } from '../driver/index.js';
import type { FieldChange } from '../vocabulary/index.js';
import type { ModelProvider } from '../world/index.js';

const ABSENT = '(absent)';

const labelOf = (part: MessagePart): string =>
  part.type === 'provider'
    ? `${part.provider} ${typeof part.block.type === 'string' ? part.block.type : 'block'}`
    : part.type;

/**
 * What a fork that changes the model loses of its prefix: the parts of the
 * conversation the new model's provider leaves out of what it sends (reasoning
 * another provider wrote, another provider's own blocks), as the provider says
 * (`ModelProvider.leavesOut`), recorded with the fork's changes as one removal:
 * `remove messages (left out for gpt-5-mini) 3 thinking`. None when the
 * provider keeps every part, or does not say.
 */
export function partsLeftOutChange(model: ModelProvider, agent: AgentBuild, start: AgentSnapshot): FieldChange[] {
  const request = modelRequestOf(agent, start.context);
  const left = model.leavesOut?.(request) ?? [];
  if (left.length === 0) return [];
  const counts = new Map<string, number>();
  for (const part of left) counts.set(labelOf(part), (counts.get(labelOf(part)) ?? 0) + 1);
  const before = [...counts].map(([label, count]) => `${count} ${label}`).join(', ');
  return [{ path: `messages (left out for ${request.model})`, before, after: ABSENT }];
}
