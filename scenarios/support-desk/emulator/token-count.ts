import type { JsonValue } from '../../../src/index.js';

/** A token count as a provider would report it, near enough: about four characters of JSON text per token. */
export const tokensOf = (value: JsonValue): number => Math.ceil(JSON.stringify(value).length / 4);
