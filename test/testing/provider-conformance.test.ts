import { ForkpointError } from '../../src/errors/index.js';
import { isModelResponse } from '../../src/conversation/index.js';
import type { ModelRequest, ModelResponse } from '../../src/conversation/index.js';
import type { JsonValue } from '../../src/json/index.js';
import { isJsonObject } from '../../src/json/index.js';
import { providerErrorOf } from '../../src/providers/index.js';
import type { ModelProvider } from '../../src/world/index.js';
import { describeProviderConformance } from '../../src/testing/index.js';
import { startHttpEmulator } from '../support/emulators/http-emulator.js';

// The suite on the smallest provider there is: one whose HTTP API speaks forkpoint's neutral shape, called with
// fetch and retrying a 429 itself. It shows what the suite asks of a user's own adapter, and that every case can pass.

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function neutralHttpProvider(url: string, maxRetries: number): ModelProvider {
  return {
    async respond(request: ModelRequest): Promise<ModelResponse> {
      for (let attempt = 0; ; attempt++) {
        try {
          const answer = await fetch(`${url}/v1/respond`, { method: 'POST', body: JSON.stringify(request) });
          // The emulator writes the neutral shape as JSON; the check below is what makes it one.
          const body = (await answer.json()) as JsonValue;
          if (answer.status === 429 && attempt < maxRetries) continue;
          if (!answer.ok)
            throw new HttpError(
              answer.status,
              isJsonObject(body) && typeof body.error === 'string' ? body.error : 'no body',
            );
          if (!isModelResponse(body)) throw new ForkpointError('PROVIDER_UNMAPPED', 'not a model response');
          return body;
        } catch (error) {
          if (error instanceof ForkpointError) throw error;
          throw providerErrorOf('neutral', error);
        }
      }
    },
  };
}

describeProviderConformance('a neutral-JSON provider over fetch', {
  start: () =>
    startHttpEmulator({
      path: '/v1/respond',
      encodeResponse: (response) => response,
      encodeError: (_status, message) => ({ error: message }),
      retryNow: {},
    }),
  provider: (url, { maxRetries }) => neutralHttpProvider(url, maxRetries),
  model: 'neutral-1',
  supports: { thinking: true, refusal: true },
});
