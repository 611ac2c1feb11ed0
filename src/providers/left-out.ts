import type { MessagePart, ModelRequest } from '../conversation/index.js';

/** The parts of a request's conversation that `leaves` says its provider cannot take, in conversation order. */
export const partsLeftOut = (request: ModelRequest, leaves: (part: MessagePart) => boolean): MessagePart[] =>
  request.messages.flatMap((message) => message.content.filter(leaves));
