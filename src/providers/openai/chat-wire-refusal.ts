import { ForkpointError } from '../../errors/index.js';

/**
 * A Chat Completions request body that cannot be turned into forkpoint's canonical request without guessing:
 * `PROVIDER_UNMAPPED`, naming the field (`messages[2].content[0].type`), with the value verbatim in
 * `details.data`. Nothing is keyed on a guess: two bodies a guess would confuse could be served each other's
 * recorded answer.
 */
export function unmappedChatRequest(field: string, value: unknown, why: string): ForkpointError {
  return new ForkpointError(
    'PROVIDER_UNMAPPED',
    `the Chat Completions request's ${field} cannot be mapped to forkpoint's canonical request: ${why}; ` +
      'send it in the form the Chat Completions API documents, or wrap the call without forkpoint',
    { details: { field, data: value ?? null } },
  );
}
