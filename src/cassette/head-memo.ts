import type { ModelRequest } from '../conversation/index.js';

/** Everything in a model request but its messages: it rarely changes within a run. */
export type RequestHead = Omit<ModelRequest, 'messages'>;

/**
 * Remembers one value computed from a request's head, and recomputes it only
 * when another head comes (compared by identity: the driver passes the same
 * prompt, tools and params objects on every step of a run).
 */
export class HeadMemo<T> {
  private last: { readonly head: RequestHead; readonly value: T } | undefined;

  constructor(private readonly compute: (head: RequestHead) => T) {}

  /** The value for `request`'s head. */
  of(request: ModelRequest): T {
    const last = this.last;
    if (
      last !== undefined &&
      last.head.model === request.model &&
      last.head.system === request.system &&
      last.head.tools === request.tools &&
      last.head.params === request.params
    ) {
      return last.value;
    }
    const { messages: _messages, ...head } = request;
    const value = this.compute(head);
    this.last = { head, value };
    return value;
  }
}
