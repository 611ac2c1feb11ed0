import { describe, expect, it } from 'vitest';
import { inWritingOrder } from '../../src/analysis/index.js';
import type { JsonValue } from '../../src/json/index.js';
import { canonicalJson } from '../../src/json/index.js';
import { shapeJson } from '../../src/tiers/index.js';
import type { Divergence } from '../../src/vocabulary/index.js';
import { isDivergence, isFinding, isShapedFinding } from '../../src/vocabulary/index.js';

const miss: Divergence = {
  classification: 'changed',
  step: 3,
  kind: 'ocr_document',
  index: 0,
  actualHash: '9c1e000000000000',
  recordedHashes: ['41d0000000000000'],
  changed: ['input'],
  diff: [{ path: 'input.document_id', before: '"DOC-1"', after: '"DOC-2"' }],
  message:
    'ocr_document#0 (step 3): request hash 9c1e000000000000 not in cassette (recorded: [41d0000000000000]); changed: input',
};
const dropped: Divergence = {
  classification: 'dropped-call',
  step: 4,
  kind: 'model',
  index: 2,
  actualHash: null,
  recordedHashes: ['41d0000000000001'],
  changed: [],
  diff: [],
  message: 'model#2 (step 4): recorded as 41d0000000000001 but the replay never asked for it; dropped-call',
};

describe('Finding', () => {
  it('accepts every class of divergence, and pairs each class with its kind of actualHash', () => {
    for (const finding of [miss, dropped]) expect(isDivergence(finding)).toBe(true);
    expect(isDivergence({ ...miss, actualHash: null })).toBe(false);
    expect(isDivergence({ ...dropped, actualHash: 'abc' })).toBe(false);
    expect(isDivergence({ ...miss, classification: 'sideways' })).toBe(false);
  });

  it('refuses a stored object that lacks a field, or holds one of another type', () => {
    const { diff: _diff, ...withoutDiff } = miss;
    const partial: readonly JsonValue[] = [
      withoutDiff,
      { ...miss, step: '3' },
      { ...miss, recordedHashes: [1] },
      { ...miss, diff: [{ path: 'a', before: 1, after: '2' }] },
      { classification: 'dropped-call', step: 5 },
      [miss],
      null,
    ];
    for (const value of partial) expect(isFinding(value)).toBe(false);
  });

  it('takes a shaped finding for one, and tells it from a divergence: no class survives the shaping', () => {
    for (const finding of [miss, dropped]) {
      const shaped = shapeJson(finding);
      expect(isFinding(shaped)).toBe(true);
      expect(isShapedFinding(shaped)).toBe(true);
      expect(isDivergence(shaped)).toBe(false);
      expect(isShapedFinding(finding)).toBe(false);
    }
  });

  it('writes a divergence in the order the transport does, whatever order it was read back in', () => {
    for (const finding of [miss, dropped]) {
      // As the store gives it back: canonical JSON, keys sorted.
      const sorted: JsonValue = JSON.parse(canonicalJson(finding));
      if (!isDivergence(sorted)) throw new Error('a stored divergence no longer reads as one');
      expect(Object.keys(sorted)[0]).toBe('actualHash');
      expect(inWritingOrder(sorted)).toEqual(finding);
      expect(Object.keys(inWritingOrder(sorted))).toEqual(Object.keys(finding));
    }
  });
});
