import type { AgentDefinition } from '../../src/index.js';
import { defineAgent } from '../../src/index.js';
import { parseResolution, validateResolution } from './outcome.js';
import { TOOL_SPECS } from './tool-specs.js';

/** The support-desk instructions of the build that was running on 4 March. */
export const SYSTEM_PROMPT = [
  'You are the support assistant of a software company.',
  'For the ticket you are given: read it with get_ticket, look its category up with search_kb, follow the article,',
  'and credit the customer with issue_credit when the article says to.',
  'End with one line of JSON: {"action": "reply" | "credit" | "escalate", "plan": string, "credit": number | null, "reply": string}.',
].join('\n');

/** The fix: the same instructions, and the plan limit stated, whatever the knowledge base says. */
export const PLAN_AWARE_PROMPT = `${SYSTEM_PROMPT}\nNever credit more than the plan limit: 20 EUR on basic, 50 EUR on pro.`;

const common: Omit<AgentDefinition, 'build' | 'systemPrompt'> = {
  name: 'support-desk',
  model: 'claude-sonnet-4-5',
  // Anthropic's own parameters, under its name, so that a fork to an OpenAI model (`--model gpt-5-mini`) sends
  // none of them: extended thinking, and the prompt cache holding the instructions and tools across the run's calls.
  params: {
    maxTokens: 2048,
    provider: {
      anthropic: { thinking: { type: 'enabled', budget_tokens: 1024 }, cache_control: { type: 'ephemeral' } },
    },
  },
  tools: TOOL_SPECS,
  stepCap: 16,
  renderInput: (input) => `Resolve ticket ${typeof input.ticketId === 'string' ? input.ticketId : '?'}.`,
  parseOutcome: parseResolution,
  validateOutcome: validateResolution,
};

/** The build of the incident: it trusts the knowledge base's credit limit. */
export const baseline = defineAgent({ ...common, build: 'baseline', systemPrompt: SYSTEM_PROMPT });

/** The candidate fix: the plan limits are in the instructions. */
export const planAware = defineAgent({ ...common, build: 'plan-aware', systemPrompt: PLAN_AWARE_PROMPT });
