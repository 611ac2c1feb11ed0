import Anthropic from '@anthropic-ai/sdk';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { anthropicClaimLoop } from './support/anthropic-claim-loop.js';
import { describeWrappedLoop } from './support/wrapped-loop-cases.js';

describeWrappedLoop({
  name: 'a hand-written while loop over the Anthropic SDK (middleware)',
  start: startAnthropicEmulator,
  run: (session, url, tools, options) =>
    anthropicClaimLoop(
      new Anthropic({ apiKey: 'test-key', baseURL: url, maxRetries: 0, middleware: [session.anthropic()] }),
      {
        fetch_claim: session.tool('fetch_claim', tools.fetch_claim, { readOnly: true }),
        ocr_document: session.tool('ocr_document', tools.ocr_document, { readOnly: true }),
        estimate_repair: session.tool('estimate_repair', tools.estimate_repair, { readOnly: true }),
      },
      options,
    ),
});
