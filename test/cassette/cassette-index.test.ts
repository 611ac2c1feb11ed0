import { describe, expect, it } from 'vitest';
import type { Cassette } from '../../src/cassette/index.js';
import { CassetteIndex, parseCassette, serializeCassette } from '../../src/cassette/index.js';
import { transportFixture } from '../../src/testing/index.js';
import { thrown } from '../support/thrown.js';

const { cassette } = transportFixture();

describe('CassetteIndex', () => {
  it('answers a model position with its model response and a tool position with its tool result, frozen', () => {
    const index = new CassetteIndex(cassette);
    const [model, lookup] = cassette.entries;
    const answer = index.modelAnswer(0, model!.requestHash);
    expect(answer).toEqual(model!.response);
    expect(Object.isFrozen(answer)).toBe(true);
    expect(index.toolAnswer('lookup', 0, lookup!.requestHash)).toEqual(lookup!.response);
    // Another kind at the same index and hash is another key.
    expect(index.toolAnswer('model', 0, model!.requestHash)).toBeUndefined();
  });

  it('refuses an entry whose response is not of its kind, naming it', () => {
    const [model, lookup, ...rest] = cassette.entries;
    const swapped: Cassette = { ...cassette, entries: [{ ...model!, response: lookup!.response }, lookup!, ...rest] };
    const error = thrown(() => new CassetteIndex(swapped));
    expect(error.code).toBe('CASSETTE_INVALID');
    expect(error.message).toMatch(/entry model#0 \(step 1\) holds a response that is not a model response/);
  });
});

describe('parseCassette', () => {
  it('reads back what it wrote', () => {
    expect(parseCassette(serializeCassette(cassette), 'c.json')).toEqual(JSON.parse(serializeCassette(cassette)));
  });

  it.each([
    ['status', /source\.status must say how the recording ended/],
    ['outcome', /source\.outcome must be an object or null/],
    ['error', /source\.error must be an object or null/],
  ])("refuses a source without its %s, since a cassette's type promises one", (field, message) => {
    const file = JSON.parse(serializeCassette(cassette)) as { source: Record<string, unknown> };
    Reflect.deleteProperty(file.source, field);
    const error = thrown(() => parseCassette(JSON.stringify(file), 'c.json'));
    expect(error.code).toBe('CASSETTE_INVALID');
    expect(error.message).toMatch(message);
  });
});
