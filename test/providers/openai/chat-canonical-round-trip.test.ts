import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/conversation/index.js';
import { RequestHasher } from '../../../src/cassette/index.js';
import type { JsonObject } from '../../../src/json/index.js';
import { chatBodyOf } from '../../../src/providers/openai/chat-request.js';
import { chatCanonicalOf } from '../../../src/providers/openai/chat-canonical.js';
import { expressibleRequest } from './chat-canonical-arbitraries.js';

const hashOf = (request: ModelRequest): string => new RequestHasher().hashModelRequest(request).requestHash;

// The body as it goes over the wire: JSON text, read back.
const wireOf = (request: ModelRequest): JsonObject => JSON.parse(JSON.stringify(chatBodyOf(request))) as JsonObject;

describe('chatCanonicalOf after chatBodyOf', () => {
  it('gives back the request the body was written from, with the same hash', () => {
    fc.assert(
      fc.property(expressibleRequest, (request) => {
        const back = chatCanonicalOf(wireOf(request));
        expect(back.request).toEqual(request);
        expect(hashOf(back.request)).toBe(hashOf(request));
        expect(back).toMatchObject({ streamed: false, setAside: {} });
      }),
      { numRuns: 300 },
    );
  });

  it('reads its own result back to itself: the canonical request of a body is a fixed point', () => {
    fc.assert(
      fc.property(expressibleRequest, (request) => {
        const once = chatCanonicalOf(wireOf(request)).request;
        expect(hashOf(chatCanonicalOf(wireOf(once)).request)).toBe(hashOf(once));
      }),
      { numRuns: 100 },
    );
  });
});
