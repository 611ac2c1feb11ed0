import type { JsonObject, ToolHandler } from '../../../src/index.js';
import { TICKETS, articleOn } from './tickets.js';

/** A tool's error the model sees as `{ error }`: the ticket or the article is not there. */
const notFound = (what: string): Error => new Error(`${what} not found`);

/** The helpdesk's backends on day `at`: the tickets, the knowledge base as it read that day, the credit ledger. */
export function supportTools(at: string): Readonly<Record<string, ToolHandler>> {
  let credits = 0;
  return {
    get_ticket: (input: JsonObject) => {
      const ticket = TICKETS.find((candidate) => candidate.ticketId === input.ticket_id);
      if (ticket === undefined) throw notFound(`ticket ${JSON.stringify(input.ticket_id ?? null)}`);
      return {
        ticket_id: ticket.ticketId,
        customer_id: ticket.customerId,
        plan: ticket.plan,
        category: ticket.category,
        subject: ticket.subject,
        body: ticket.body,
        amount_eur: ticket.amountEur,
      };
    },
    search_kb: (input: JsonObject) => {
      const query = typeof input.query === 'string' ? input.query : '';
      const category = query === 'account' || query === 'billing' || query === 'bug' ? query : undefined;
      const article = category === undefined ? undefined : articleOn(category, at);
      return {
        articles:
          article === undefined ? [] : [{ article_id: article.articleId, title: article.title, text: article.text }],
      };
    },
    // The one tool that writes: every call moves money, so a fork or re-execution reaches it only by name.
    issue_credit: (input: JsonObject) => {
      credits++;
      const customer = typeof input.customer_id === 'string' ? input.customer_id : 'unknown';
      return { credit_id: `CR-${customer}-${credits}`, amount_eur: input.amount_eur ?? null };
    },
  };
}
