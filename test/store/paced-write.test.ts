import { describe, expect, it } from 'vitest';
import { pacedWrite } from '../../src/store/index.js';

describe('pacedWrite', () => {
  it('returns what the write returns and passes its error on', async () => {
    expect(await pacedWrite(() => 42)).toBe(42);
    await expect(
      pacedWrite(() => {
        throw new Error('write failed');
      }),
    ).rejects.toThrow('write failed');
  });
});
