/**
 * A live attempt the provider answered with an error (a 429, a 5xx, a 400):
 * the SDK gets the provider's response as it was, and decides (it retries,
 * or throws its own error). The attempt is no step: a retry takes the same
 * position, so the logical call is keyed once, by the answer that came.
 */
export class ProviderAttemptFailed extends Error {
  constructor(
    /** What the provider answered, handed to the SDK unread. */
    readonly answer: unknown,
    status: number,
  ) {
    super(`the provider answered ${status}`);
    this.name = 'ProviderAttemptFailed';
  }
}
