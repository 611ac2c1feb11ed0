import type { ToolSpec } from '../../src/index.js';

/**
 * The three tools of the support-desk agent. Only `issue_credit` writes (it
 * moves money back to a customer), so it carries a simulator for the
 * side-effect firewall.
 */
export const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'get_ticket',
    description: "Fetch a support ticket: the customer, their plan, the category, the customer's words.",
    inputSchema: { type: 'object', properties: { ticket_id: { type: 'string' } }, required: ['ticket_id'] },
    readOnly: true,
  },
  {
    name: 'search_kb',
    description: 'Search the knowledge base by category (account, billing, bug). Returns the matching articles.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    readOnly: true,
  },
  {
    name: 'issue_credit',
    description: "Credit an amount (EUR) back to a customer's account. Returns the credit's id.",
    inputSchema: {
      type: 'object',
      properties: { customer_id: { type: 'string' }, amount_eur: { type: 'number' } },
      required: ['customer_id', 'amount_eur'],
    },
    readOnly: false,
    // What a fork or a re-execution gets instead of a second real credit, when it asks for a simulation by name.
    simulate: ({ input }) => ({
      credit_id: `SIM-${typeof input.customer_id === 'string' ? input.customer_id : 'unknown'}`,
      amount_eur: typeof input.amount_eur === 'number' ? input.amount_eur : null,
      simulated: true,
    }),
  },
];
