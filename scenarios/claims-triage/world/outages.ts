import type { ClaimsTools } from './claims-world.js';

/**
 * The day the policy service was down (its database failed over and did not
 * come back until the next morning): every `fetch_policy` call timed out.
 * A timeout is the backend not answering, not an answer the model could read,
 * so a run that reaches the policy that day stops there with `TOOL_FAILED`,
 * and `forkpoint resume` can continue it once the service is back.
 */
export const POLICY_OUTAGE_DAY = '2026-03-12';

/**
 * The recorded world's tools with its outages: on {@link POLICY_OUTAGE_DAY}
 * `fetch_policy` fails as a socket that timed out does (`ETIMEDOUT`). The
 * synthetic cases' worlds have no outages.
 */
export function withOutages(tools: ClaimsTools, at: string): ClaimsTools {
  if (at !== POLICY_OUTAGE_DAY) return tools;
  return {
    ...tools,
    fetch_policy: () =>
      Promise.reject(Object.assign(new Error('the policy service did not answer within 30 s'), { code: 'ETIMEDOUT' })),
  };
}
