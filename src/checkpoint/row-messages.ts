/**
 * What separates the digests of a row that appended several messages. A
 * driven run's step appends at most one message (its row's `message` is that
 * message, `messageDigest` its digest); a wrapped loop's model step appends
 * the messages its request brought and the reply, so its row's `message` is
 * the list of them and `messageDigest` their digests joined by this.
 */
export const MESSAGE_DIGEST_SEPARATOR = ' ';

/** The digests a row's `messageDigest` column holds: none, one, or several joined. */
export function rowMessageDigests(messageDigest: string | null): readonly string[] {
  if (messageDigest === null) return [];
  return messageDigest.includes(MESSAGE_DIGEST_SEPARATOR)
    ? messageDigest.split(MESSAGE_DIGEST_SEPARATOR)
    : [messageDigest];
}
