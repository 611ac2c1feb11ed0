import OpenAI from 'openai';
import { startOpenAIEmulator } from '../support/emulators/openai-emulator.js';
import { openAIClaimLoop } from './support/openai-claim-loop.js';
import { describeWrappedLoop } from './support/wrapped-loop-cases.js';

describeWrappedLoop({
  name: 'a Chat Completions loop over the OpenAI SDK (fetch)',
  start: () => startOpenAIEmulator('chat'),
  run: (session, url, tools, options) =>
    openAIClaimLoop(
      new OpenAI({ apiKey: 'test-key', baseURL: `${url}/v1`, maxRetries: 0, fetch: session.fetch(fetch) }),
      {
        fetch_claim: session.tool('fetch_claim', tools.fetch_claim, { readOnly: true }),
        ocr_document: session.tool('ocr_document', tools.ocr_document, { readOnly: true }),
        estimate_repair: session.tool('estimate_repair', tools.estimate_repair, { readOnly: true }),
      },
      options,
    ),
});
