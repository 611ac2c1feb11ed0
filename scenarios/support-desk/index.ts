import type { JsonObject } from '../../src/index.js';
import { ForkpointError, defineScenario } from '../../src/index.js';
import { baseline, planAware } from './builds.js';
import { TICKETS } from './world/tickets.js';
import { openSupportWorld } from './world/open-world.js';

/**
 * The support-desk scenario: a support agent whose model is reached through
 * the real Anthropic SDK (or OpenAI's, for a `gpt-*` model), offline against a
 * local emulator of their APIs; and the incident of T-2041, a Basic customer
 * credited beyond the Basic plan's limit on a knowledge-base typo.
 */
export default defineScenario({
  name: 'support-desk',
  description:
    'Resolve support tickets through the Anthropic SDK: read the ticket, look the procedure up, credit or escalate.',
  builds: { baseline, 'plan-aware': planAware },
  defaultBuild: 'baseline',
  inputFlags: { ticket: { description: 'the ticket to resolve, e.g. T-2041' } },
  inputFrom(flags): JsonObject {
    const ticketId = flags.ticket;
    if (ticketId === undefined) throw new ForkpointError('USAGE', 'record needs --ticket ID, e.g. --ticket T-2041');
    if (!TICKETS.some((ticket) => ticket.ticketId === ticketId)) {
      throw new ForkpointError(
        'INPUT_INVALID',
        `unknown ticket ${ticketId}; the tickets are ${TICKETS.map((ticket) => ticket.ticketId).join(', ')}`,
      );
    }
    return { ticketId };
  },
  allInputs: () => TICKETS.map((ticket) => ({ ticketId: ticket.ticketId })),
  openWorld: (options) => openSupportWorld(options),
});

export { baseline, planAware, PLAN_AWARE_PROMPT, SYSTEM_PROMPT } from './builds.js';
export { TICKETS, ARTICLES, PLAN_LIMITS } from './world/tickets.js';
export { openSupportWorld, LIVE_SWITCH } from './world/open-world.js';
export { startSupportEmulator, type SupportEmulator } from './emulator/support-emulator.js';
