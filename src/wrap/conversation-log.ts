import type { HashedModelRequest } from '../cassette/index.js';
import { RequestHasher } from '../cassette/index.js';
import type { Message, ModelRequest } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import { sameJson } from '../json/index.js';

/** A model request in the form a wrapped run stores it: its messages those of the log, and its hash. */
export interface LoggedRequest {
  readonly request: ModelRequest;
  readonly hashed: HashedModelRequest;
}

/**
 * The conversation a wrapped loop has sent so far, as its requests carried
 * it: each model request must extend the one before (the loop's history
 * only grows), and the log is every message any request held, in order. A
 * request is hashed exactly as a driven run's request over the same
 * messages; the run's hasher keeps the log's own message objects, so that a
 * request is hashed for the messages it adds.
 *
 * The loop's body is parsed afresh on every call, so its messages are new
 * objects each time: each is checked against the log's by value (one walk,
 * no canonical text or hash), and the log's objects stand for them.
 */
export class ConversationLog {
  /** The run's hasher: the checkpoint writer digests the log's messages through it. */
  readonly hasher = new RequestHasher();
  private readonly messages: Message[] = [];

  /** How many messages the loop has sent. */
  get length(): number {
    return this.messages.length;
  }

  /**
   * Takes a model request the loop sends: its messages must begin with the
   * log's. Refused (`SESSION_MISUSE`) when the loop rewrote its history.
   *
   * @param where the call, for the message (`model#3 (step 7)`)
   */
  take(request: ModelRequest, where: string): LoggedRequest {
    const known = this.messages;
    const sent = request.messages;
    const differs = known.findIndex((message, i) => {
      const now = sent[i];
      return now === undefined || !sameJson(message, now);
    });
    if (differs >= 0) {
      throw new ForkpointError(
        'SESSION_MISUSE',
        `${where} does not continue the conversation the loop sent before: message ${differs} ${differs < sent.length ? 'differs' : 'is missing'}. A session records loops whose history only grows; trim or rewrite the history in a new session (a new run)`,
      );
    }
    for (const message of sent.slice(known.length)) known.push(message);
    const logged: ModelRequest = { ...request, messages: known.slice() };
    return { request: logged, hashed: this.hasher.hashModelRequest(logged) };
  }
}
