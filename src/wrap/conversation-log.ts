import type { HashedModelRequest } from '../cassette/index.js';
import { RequestHasher } from '../cassette/index.js';
import type { Message, ModelRequest } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';

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
 * request costs the messages it adds.
 *
 * The loop's body is parsed afresh on every call, so its messages are new
 * objects each time: they are checked against the log by digest (a fresh
 * hasher over the whole request, O(its length), which the SDK paid already to
 * write it), and the log's objects stand for them.
 */
export class ConversationLog {
  /** The run's hasher: the checkpoint writer digests the log's messages through it. */
  readonly hasher = new RequestHasher();
  private readonly messages: Message[] = [];
  private digests: readonly string[] = [];

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
    const fresh = new RequestHasher().hashModelRequest(request);
    const digests = fresh.messageDigests.list.slice(0, fresh.messageDigests.length);
    const known = this.digests;
    const differs = known.findIndex((digest, i) => digests[i] !== digest);
    if (digests.length < known.length || differs >= 0) {
      const at = differs >= 0 ? differs : digests.length;
      throw new ForkpointError(
        'SESSION_MISUSE',
        `${where} does not continue the conversation the loop sent before: message ${at} ${differs >= 0 ? 'differs' : 'is missing'}. A session records loops whose history only grows; trim or rewrite the history in a new session (a new run)`,
      );
    }
    for (const message of request.messages.slice(this.messages.length)) this.messages.push(message);
    this.digests = digests;
    const logged: ModelRequest = { ...request, messages: this.messages.slice() };
    return { request: logged, hashed: this.hasher.hashModelRequest(logged) };
  }
}
