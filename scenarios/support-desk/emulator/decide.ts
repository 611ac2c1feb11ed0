import type { JsonObject } from '../../../src/index.js';
import { isJsonObject } from '../../../src/index.js';
import { isJsonList } from './json-list.js';
import { PLAN_LIMITS } from '../world/tickets.js';

/** What the emulated model reads of a request, whatever the provider's wire format. */
export interface Transcript {
  readonly system: string;
  /** The ticket the first user turn names. */
  readonly ticketId: string | null;
  /** The latest result of each tool, by tool name. */
  readonly results: ReadonlyMap<string, JsonObject>;
}

/** What the emulated model does next: call a tool, or write its final turn. Both start with a thought. */
export type Decision =
  | { readonly kind: 'tool'; readonly thought: string; readonly name: string; readonly input: JsonObject }
  | { readonly kind: 'final'; readonly thought: string; readonly text: string };

const field = (object: JsonObject | undefined, name: string): string | number | undefined => {
  const value = object?.[name];
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
};

/**
 * The support model's policy, deterministic but for its wording (`random`):
 * read the ticket, look its category up, follow the article. It believes the
 * article's credit limit unless its instructions state the plan limits.
 */
export function decide(transcript: Transcript, random: () => number): Decision {
  const ticket = transcript.results.get('get_ticket');
  if (ticket === undefined) {
    return {
      kind: 'tool',
      thought: 'A customer wrote in. Read the ticket before anything else.',
      name: 'get_ticket',
      input: { ticket_id: transcript.ticketId ?? 'unknown' },
    };
  }
  const category = field(ticket, 'category');
  const plan = String(field(ticket, 'plan') ?? 'unknown');
  const search = transcript.results.get('search_kb');
  if (search === undefined) {
    return {
      kind: 'tool',
      thought: `The ticket is about ${String(category)}. Look the procedure up.`,
      name: 'search_kb',
      input: { query: String(category) },
    };
  }
  const article = isJsonList(search.articles) ? search.articles[0] : undefined;
  const text = isJsonObject(article) ? article.text : undefined;
  const articleText = typeof text === 'string' ? text : '';
  const final = (action: string, credit: number | null, reply: string, thought: string): Decision => ({
    kind: 'final',
    thought,
    text: `Resolved.\n${JSON.stringify({ action, plan, credit, reply })}`,
  });
  const polite = random() < 0.5 ? 'Thank you for your patience.' : 'Thanks for letting us know.';
  if (category === 'billing') {
    const asked = Number(field(ticket, 'amount_eur') ?? 0);
    const limit = creditLimit(articleText, plan, transcript.system);
    const credit = Math.min(asked, limit);
    if (!transcript.results.has('issue_credit')) {
      return {
        kind: 'tool',
        thought: `The article allows credits up to ${limit} EUR; the customer asks ${asked} EUR. Credit ${credit} EUR.`,
        name: 'issue_credit',
        input: { customer_id: String(field(ticket, 'customer_id') ?? 'unknown'), amount_eur: credit },
      };
    }
    return final('credit', credit, `${polite} We credited ${credit} EUR to your account.`, 'The credit went through.');
  }
  if (category === 'bug')
    return final('escalate', null, `${polite} Engineering is on it.`, 'An outage: this goes to engineering.');
  return final('reply', null, `${polite} ${articleText.split('.')[0] ?? ''}.`, 'The article answers it.');
}

// The limit the article states (its plan's own, when it names plans), capped by the plan's when the
// instructions state the plan limits.
function creditLimit(article: string, plan: string, system: string): number {
  const planned = new RegExp(`up to (\\d+) EUR(?: per ticket)? on ${plan}`, 'i').exec(article);
  const stated = planned ?? /up to (\d+) EUR/i.exec(article);
  const fromArticle = stated === null ? 0 : Number(stated[1]);
  const planLimit = PLAN_LIMITS[plan] ?? 0;
  return system.includes('Never credit more than the plan limit') ? Math.min(fromArticle, planLimit) : fromArticle;
}
