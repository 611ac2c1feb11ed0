import { startOpenAIEmulator } from '../support/emulators/openai-emulator.js';
import { openAIClaimLoop } from './support/openai-claim-loop.js';
import { openAIThrough, wrappedClaimTools } from './support/session-fixtures.js';
import { describeWrappedLoop } from './support/wrapped-loop-cases.js';

describeWrappedLoop({
  name: 'a Chat Completions loop over the OpenAI SDK (fetch)',
  start: () => startOpenAIEmulator('chat'),
  run: (session, url, tools, options) =>
    openAIClaimLoop(openAIThrough(session, url), wrappedClaimTools(session, tools), options),
});
