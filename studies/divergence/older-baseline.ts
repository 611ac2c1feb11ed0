import type { AgentBuild } from '../../src/agent/index.js';
import { defineAgent } from '../../src/agent/index.js';
import { SYSTEM_PROMPT, baseline } from '../../scenarios/claims-triage/builds.js';
import { definitionOf } from '../mutation-study/definition-of.js';

const TODAY = 'You are the claims-triage assistant of a motor insurer.';
const THEN = 'You are a claims-triage assistant working for a motor insurer.';

/**
 * An older release of `baseline`: the same name and build name, one sentence
 * of its system prompt worded differently, so its code hash differs. A run
 * recorded with it and re-executed with today's `baseline` leaves the
 * recording at its first request because the code changed.
 */
export const olderBaseline: AgentBuild = defineAgent({ ...definitionOf(baseline), systemPrompt: olderPrompt() });

function olderPrompt(): string {
  // Fail loudly if today's prompt loses the sentence: the older release would silently become today's.
  if (!SYSTEM_PROMPT.includes(TODAY))
    throw new Error(`the baseline prompt no longer opens with "${TODAY}"; update the older release`);
  return SYSTEM_PROMPT.replace(TODAY, THEN);
}
