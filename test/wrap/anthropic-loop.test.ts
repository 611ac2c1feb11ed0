import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { anthropicClaimLoop } from './support/anthropic-claim-loop.js';
import { anthropicThrough, wrappedClaimTools } from './support/session-fixtures.js';
import { describeWrappedLoop } from './support/wrapped-loop-cases.js';

describeWrappedLoop({
  name: 'a hand-written while loop over the Anthropic SDK (middleware)',
  start: startAnthropicEmulator,
  run: (session, url, tools, options) =>
    anthropicClaimLoop(anthropicThrough(session, url), wrappedClaimTools(session, tools), options),
});
