import type { RequestKeys } from '../transports/index.js';
import { StructuralHasher } from '../tiers/index.js';

/**
 * Keys a structural replay's requests by their shape: one structural hasher
 * per replay, since message digests are positional within a run. A miss is
 * diffed on the summary a structural cassette keeps (`{ messages: count }`).
 */
export function structuralKeys(): RequestKeys {
  const hasher = new StructuralHasher();
  return {
    model(call) {
      const hashed = hasher.hashModelRequest(call.request);
      return { requestHash: hashed.requestHash, canonical: JSON.stringify(hashed.summary) };
    },
    tool(call) {
      const hashed = hasher.hashToolRequest(call.request);
      return { requestHash: hashed.requestHash, canonical: hashed.canonical };
    },
  };
}
