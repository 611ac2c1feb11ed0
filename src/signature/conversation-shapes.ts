import type { ObservationClassifier } from '../agent/index.js';
import type { Message, ToolUsePart } from '../conversation/index.js';
import type { StepShape } from './signature.js';
import { toolShapeOf } from './signature-tally.js';

/**
 * The step shapes of a trajectory's prefix read off the conversation a
 * checkpoint restores, without reading a row: what a fork starts its
 * signature from, since preparing a fork reads step N's row and no other.
 * A model step of the prefix asked for tools (else the run would have
 * ended) or paused its turn; a tool step is the result the model saw. Two
 * things a recorded trajectory holds are not in the conversation, so a
 * fork's signature can differ from a recording's over the same steps: a
 * retried call's failed attempts, and the output as the tool gave it under a
 * build whose `renderToolResult` rewrites it.
 */
export function conversationShapes(messages: readonly Message[], classify?: ObservationClassifier): StepShape[] {
  const asked = new Map<string, ToolUsePart>();
  const shapes: StepShape[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      const uses = message.content.filter((part): part is ToolUsePart => part.type === 'tool_use');
      for (const use of uses) asked.set(use.id, use);
      const asks = uses.map((use) => use.name).sort();
      shapes.push({ kind: 'model', asks, stop: asks.length > 0 ? 'tool_use' : 'pause_turn' });
      continue;
    }
    for (const part of message.content) {
      if (part.type !== 'tool_result') continue;
      const use = asked.get(part.toolUseId);
      shapes.push(
        toolShapeOf(
          { tool: use?.name ?? 'unknown', input: use?.input ?? {}, output: part.content, isError: part.isError },
          classify,
        ),
      );
    }
  }
  return shapes;
}
