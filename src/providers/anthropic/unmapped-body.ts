import { ForkpointError } from '../../errors/index.js';

/**
 * A `/v1/messages` body the inverse mapping cannot turn into a neutral request
 * without guessing: `PROVIDER_UNMAPPED`, naming the field by its path in the
 * body (`messages[2].content[0]`), with the value verbatim in `details.data`.
 * The message says what to do, since the request is the caller's own: a key
 * made from a guess could serve a recorded answer to a request it never saw.
 */
export function unmappedBody(field: string, value: unknown, why: string): ForkpointError {
  return new ForkpointError(
    'PROVIDER_UNMAPPED',
    `the Anthropic request's ${field} cannot be mapped to forkpoint's request: ${why}; ` +
      'send it as the Messages API documents it, or report the shape to forkpoint if the API takes it',
    { details: { field, data: value } },
  );
}
