/**
 * The version of the canonical request form, written into every run and every
 * cassette. Version 1:
 *
 * - a request hash is sha256 of the canonical text, first 16 hex characters;
 * - canonical text is fast-json-stable-stringify over validated plain JSON;
 * - a model request is `{ messages, model, params, system, tools }` in which each
 *   message stands as its own digest (sha256, 16 hex, of the message's canonical
 *   text), so a request costs O(new bytes) to hash however long the run;
 * - inside a message, opaque values the provider mints afresh on every call
 *   (tool-call ids, thinking signatures) are replaced by positional aliases
 *   (`tool_use#0`, `signature#0`, numbered in conversation order);
 * - a tool request is `{ input, tool }`; the provider's call id is not part of it.
 */
export const CANONICAL_FORM = 'forkpoint-canonical/1';

/** Hex characters of a request hash and of a message digest. */
export const REQUEST_HASH_LENGTH = 16;
