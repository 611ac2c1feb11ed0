import type { MessagePart } from '../../conversation/index.js';
import { OPENAI } from './wire-reading.js';

/**
 * True for a part Chat Completions cannot take: reasoning (thinking, redacted
 * thinking) and every provider part but an earlier audio answer of OpenAI's.
 */
export const chatLeavesOut = (part: MessagePart): boolean =>
  part.type === 'thinking' ||
  part.type === 'redacted_thinking' ||
  (part.type === 'provider' && !(part.provider === OPENAI && part.block.type === 'audio'));

/** True for a part the Responses API cannot take: another provider's reasoning and its own blocks. */
export const responsesLeaveOut = (part: MessagePart): boolean =>
  part.type === 'thinking' ||
  part.type === 'redacted_thinking' ||
  (part.type === 'provider' && part.provider !== OPENAI);
