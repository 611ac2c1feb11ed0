/** A customer's plan, and the most a support agent may credit on it. */
export const PLAN_LIMITS: Readonly<Record<string, number>> = { basic: 20, pro: 50 };

/** A support ticket as the helpdesk holds it. */
export interface Ticket {
  readonly ticketId: string;
  readonly customerId: string;
  readonly plan: 'basic' | 'pro';
  readonly category: 'account' | 'billing' | 'bug';
  readonly subject: string;
  readonly body: string;
  /** The amount the customer asks back, in EUR (0 when they ask for none). */
  readonly amountEur: number;
}

/** The tickets of the scenario. T-2041 is the incident: a Basic customer charged twice. */
export const TICKETS: readonly Ticket[] = [
  {
    ticketId: 'T-1001',
    customerId: 'C-118',
    plan: 'basic',
    category: 'account',
    subject: 'Cannot reset my password',
    body: 'The reset link in your email says it expired. I tried twice today.',
    amountEur: 0,
  },
  {
    ticketId: 'T-2041',
    customerId: 'C-540',
    plan: 'basic',
    category: 'billing',
    subject: 'Charged twice this month',
    body: 'My card shows two charges of 49 EUR on 2 March. Please refund the duplicate.',
    amountEur: 49,
  },
  {
    ticketId: 'T-3307',
    customerId: 'C-902',
    plan: 'pro',
    category: 'bug',
    subject: 'CSV export fails',
    body: 'Every export since last week ends with "error 502". We need the report for Friday.',
    amountEur: 0,
  },
  {
    ticketId: 'T-4410',
    customerId: 'C-233',
    plan: 'pro',
    category: 'billing',
    subject: 'Billed for a seat we removed',
    body: 'We removed a seat on 20 February but were billed 35 EUR for it in March.',
    amountEur: 35,
  },
];

/** A knowledge-base article, valid from a day on. */
export interface Article {
  readonly articleId: string;
  readonly category: Ticket['category'];
  readonly title: string;
  readonly text: string;
  /** The first day (YYYY-MM-DD) this version answers. */
  readonly from: string;
}

/**
 * The knowledge base, by version. Until 6 March the billing article carried a
 * typo, "500 EUR" for "50 EUR", and said nothing of plans: the agent credited a
 * Basic customer beyond what the Basic plan allows.
 */
export const ARTICLES: readonly Article[] = [
  {
    articleId: 'KB-12',
    category: 'account',
    title: 'Password resets',
    text: 'Reset links expire after 30 minutes. Send a new link from the admin console; never ask for the password.',
    from: '2026-01-01',
  },
  {
    articleId: 'KB-31',
    category: 'billing',
    title: 'Duplicate and wrong charges',
    text: 'Confirm the charge in the billing console, then credit it. Agents may credit up to 500 EUR per ticket.',
    from: '2026-01-01',
  },
  {
    articleId: 'KB-31',
    category: 'billing',
    title: 'Duplicate and wrong charges',
    text: 'Confirm the charge in the billing console, then credit it. Agents may credit up to 20 EUR per ticket on Basic and up to 50 EUR on Pro; escalate anything above.',
    from: '2026-03-06',
  },
  {
    articleId: 'KB-47',
    category: 'bug',
    title: 'Export failures',
    text: 'A 502 on export is an outage of the export service: escalate to engineering with the customer id.',
    from: '2026-01-01',
  },
];

/** The article of a category as it read on day `at`. */
export function articleOn(category: Ticket['category'], at: string): Article | undefined {
  return ARTICLES.filter((article) => article.category === category && article.from <= at).at(-1);
}
