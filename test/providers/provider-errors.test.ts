import { describe, expect, it } from 'vitest';
import { providerErrorOf } from '../../src/providers/index.js';

/** An SDK error as the Anthropic and OpenAI SDKs shape it (`status`) or as the AI SDK's APICallError does (`statusCode`). */
const withStatus = (status: number) => Object.assign(new Error(`${status} from the API`), { status });
const withStatusCode = (statusCode: number) => Object.assign(new Error(`${statusCode} from the API`), { statusCode });

describe('providerErrorOf', () => {
  it.each([
    [400, 'PROVIDER_REJECTED'],
    [401, 'PROVIDER_REJECTED'],
    [404, 'PROVIDER_REJECTED'],
    [408, 'PROVIDER_FAILED'],
    [409, 'PROVIDER_FAILED'],
    [429, 'PROVIDER_FAILED'],
    [500, 'PROVIDER_FAILED'],
    [529, 'PROVIDER_FAILED'],
  ])('reads a %i the same from `status` and from `statusCode`: %s', (status, code) => {
    for (const error of [withStatus(status), withStatusCode(status)]) {
      const mapped = providerErrorOf('acme', error);
      expect(mapped.code).toBe(code);
      expect(mapped.message).toContain(`(${status})`);
      expect(mapped.message).toContain(`${status} from the API`);
      expect(mapped.cause).toBe(error);
    }
  });

  it('prefers `status` when an error has both, and reads neither when it is not a number', () => {
    expect(providerErrorOf('acme', Object.assign(new Error('x'), { status: 400, statusCode: 500 })).code).toBe(
      'PROVIDER_REJECTED',
    );
    const unreadable = providerErrorOf('acme', Object.assign(new Error('x'), { statusCode: '400' }));
    expect(unreadable.code).toBe('PROVIDER_FAILED');
    expect(unreadable.message).toContain('could not be reached');
  });
});
