import type { AgentBuild, AgentDefinition, ToolSpec } from '../../src/agent/index.js';
import type { JsonObject, JsonValue } from '../../src/json/index.js';
import type { Message, ModelRequest, ModelResponse } from '../../src/conversation/index.js';
import type { World } from '../../src/world/index.js';
import { defineAgent } from '../../src/agent/index.js';
import { isJsonObject } from '../../src/json/index.js';
import { textOf } from '../../src/conversation/index.js';
import { fieldText } from './field-text.js';
import { parseJsonOutcome } from './test-agents.js';

/**
 * refund-desk: the test suite's own agent that moves money. Its model looks up
 * the order, then the customer, then refunds the order's amount, then writes
 * `{"refunded": AMOUNT, "refund_id": ID}`. `refund` is the one tool that is
 * not read-only; the world counts every live call of every tool, so a test
 * can say exactly how many refunds reached the "bank".
 *
 * Trajectory (steps): 1 model#0, 2 lookup_order#0, 3 model#1, 4 lookup_customer#0,
 * 5 model#2, 6 refund#0, 7 model#3 (final). With `notify: true` the model calls
 * `notify_customer` (a tool no build declares) at step 6, and refunds at step 8.
 * The `supervised` build asks a person before a refund over 100 (ORD-1's 120):
 * its run stops at rest after step 5, and a person's answer is step 6.
 */

/** The orders the world knows, by id. */
export const ORDERS: Readonly<
  Record<string, { readonly customer_id: string; readonly amount: number; readonly currency: string }>
> = {
  'ORD-1': { customer_id: 'CUS-7', amount: 120, currency: 'EUR' },
  'ORD-2': { customer_id: 'CUS-9', amount: 45, currency: 'EUR' },
};

/** The customers the world knows, by id. */
export const CUSTOMERS: Readonly<Record<string, { readonly name: string; readonly tier: string }>> = {
  'CUS-7': { name: 'Ada Lovelace', tier: 'gold' },
  'CUS-9': { name: 'Alan Turing', tier: 'silver' },
};

/** Live calls per tool the world received (and model calls, for completeness). */
export interface RefundCalls {
  model: number;
  lookup_order: number;
  lookup_customer: number;
  refund: number;
  notify_customer: number;
}

/** A fresh set of counters, all zero. */
export const zeroCalls = (): RefundCalls => ({
  model: 0,
  lookup_order: 0,
  lookup_customer: 0,
  refund: 0,
  notify_customer: 0,
});

/** Sets every counter of `calls` back to zero, in place (the CLI fixture shares one object). */
export function resetCalls(calls: RefundCalls): void {
  Object.assign(calls, zeroCalls());
}

const lookupOrder: ToolSpec = {
  name: 'lookup_order',
  description: 'reads an order: its customer and amount',
  inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  readOnly: true,
};

const lookupCustomer: ToolSpec = {
  name: 'lookup_customer',
  description: 'reads a customer record',
  inputSchema: { type: 'object', properties: { customer_id: { type: 'string' } }, required: ['customer_id'] },
  readOnly: true,
};

const refundSchema = {
  type: 'object',
  properties: { order_id: { type: 'string' }, amount: { type: 'number' } },
  required: ['order_id', 'amount'],
};

/** The refund tool with a pure simulator: what a bank would answer, minus the money. */
const refund: ToolSpec = {
  name: 'refund',
  description: 'refunds an amount of an order to the customer: moves money',
  inputSchema: refundSchema,
  readOnly: false,
  simulate: ({ input, index }) => ({
    refund_id: `SIM-${fieldText(input.order_id)}-${index}`,
    amount: input.amount ?? null,
    simulated: true,
  }),
};

const refundWithoutSimulator: ToolSpec = {
  name: 'refund',
  description: refund.description,
  inputSchema: refundSchema,
  readOnly: false,
};

const refundSimulatorThrows: ToolSpec = {
  ...refundWithoutSimulator,
  simulate: () => {
    throw new Error('the sandbox bank is down');
  },
};

const refundSimulatorDate: ToolSpec = {
  ...refundWithoutSimulator,
  // A Date is not JSON: the simulator is the agent's own code at fault.
  simulate: () => ({ refund_id: 'SIM-DATE', at: new Date(0) }) as unknown as JsonValue,
};

/** The refund tool of the supervised build: a refund over 100 waits for a person's approval. */
const supervisedRefund: ToolSpec = {
  ...refund,
  requiresApproval: ({ input }) => typeof input.amount !== 'number' || input.amount > 100,
};

/** The builds of refund-desk, by name. */
export type RefundBuildName =
  'baseline' | 'terse' | 'no-simulator' | 'simulator-throws' | 'simulator-date' | 'supervised';

const TOOLS: Readonly<Record<RefundBuildName, readonly ToolSpec[]>> = {
  baseline: [lookupOrder, lookupCustomer, refund],
  terse: [lookupOrder, lookupCustomer, refund],
  'no-simulator': [lookupOrder, lookupCustomer, refundWithoutSimulator],
  'simulator-throws': [lookupOrder, lookupCustomer, refundSimulatorThrows],
  'simulator-date': [lookupOrder, lookupCustomer, refundSimulatorDate],
  supervised: [lookupOrder, lookupCustomer, supervisedRefund],
};

const PROMPTS: Readonly<Record<RefundBuildName, string>> = {
  baseline: 'You are a refund desk. Look up the order and its customer, then refund the order amount.',
  // Another prompt: its first model request hashes differently, so a replay misses at step 1.
  terse: 'Refund desk. Look up, then refund.',
  'no-simulator': 'You are a refund desk. Look up the order and its customer, then refund the order amount.',
  'simulator-throws': 'You are a refund desk. Look up the order and its customer, then refund the order amount.',
  'simulator-date': 'You are a refund desk. Look up the order and its customer, then refund the order amount.',
  supervised: 'You are a refund desk. Look up the order and its customer, then refund the order amount.',
};

/** One build of refund-desk. */
export function refundBuild(build: RefundBuildName = 'baseline', overrides: Partial<AgentDefinition> = {}): AgentBuild {
  return defineAgent({
    name: 'refund-desk',
    build,
    systemPrompt: PROMPTS[build],
    model: 'refund-model',
    params: { maxTokens: 256 },
    tools: TOOLS[build],
    stepCap: 20,
    renderInput: (input) => `Refund order ${fieldText(input.orderId)}.`,
    parseOutcome: parseJsonOutcome,
    validateOutcome: (outcome) => (typeof outcome.refunded === 'number' ? [] : ['the outcome says no refunded amount']),
    ...overrides,
  });
}

/** Every build, as a scenario lists them. */
export function refundBuilds(): Record<RefundBuildName, AgentBuild> {
  const names = Object.keys(TOOLS) as RefundBuildName[];
  return Object.fromEntries(names.map((name) => [name, refundBuild(name)])) as Record<RefundBuildName, AgentBuild>;
}

/** Options of {@link openRefundWorld}. */
export interface RefundWorldOptions {
  /** Where live calls are counted. */
  readonly calls: RefundCalls;
  /** The model also calls `notify_customer`, a tool no build declares, before it refunds. */
  readonly notify?: boolean;
}

/** The live world: a stateless fake provider (it decides from the conversation alone) and counting tools. */
export function openRefundWorld(options: RefundWorldOptions): World {
  const { calls } = options;
  return {
    model: {
      // The executor's throw rejects the promise, as a provider's failed call does.
      respond: (request) =>
        new Promise((resolve) => {
          calls.model++;
          resolve(decide(request, options.notify === true));
        }),
    },
    tools: {
      lookup_order: (input) => {
        calls.lookup_order++;
        const orderId = fieldText(input.order_id);
        const order = ORDERS[orderId];
        if (order === undefined) throw new Error(`no order ${orderId}`);
        return { order_id: orderId, ...order };
      },
      lookup_customer: (input) => {
        calls.lookup_customer++;
        const customerId = fieldText(input.customer_id);
        const customer = CUSTOMERS[customerId];
        if (customer === undefined) throw new Error(`no customer ${customerId}`);
        return { customer_id: customerId, ...customer };
      },
      refund: (input) => {
        calls.refund++;
        return {
          refund_id: `RF-${fieldText(input.order_id)}-${calls.refund}`,
          amount: input.amount ?? null,
          simulated: false,
        };
      },
      notify_customer: (input) => {
        calls.notify_customer++;
        return { notified: fieldText(input.customer_id) };
      },
    },
  };
}

/** A world with its own counters, for engine tests. */
export function createRefundDesk(options: { readonly notify?: boolean } = {}): {
  world: World;
  calls: RefundCalls;
} {
  const calls = zeroCalls();
  return { world: openRefundWorld({ calls, ...options }), calls };
}

// The model's decision, from the conversation alone: which tools have answered, and what.
function decide(request: ModelRequest, notify: boolean): ModelResponse {
  const turn = request.messages.filter((message) => message.role === 'assistant').length;
  const results = toolResultsOf(request.messages);
  const orderId = /ORD-\d+/.exec(textOf(request.messages[0]?.content ?? []))?.[0] ?? 'ORD-?';
  const order = results.get('lookup_order');
  if (order === undefined) return toolTurn(turn, request.model, 'lookup_order', { order_id: orderId });
  if (typeof order.amount !== 'number' || typeof order.customer_id !== 'string') {
    return finalTurn(turn, request.model, { refunded: 0, reason: 'the order could not be read' });
  }
  if (!results.has('lookup_customer'))
    return toolTurn(turn, request.model, 'lookup_customer', { customer_id: order.customer_id });
  if (notify && !results.has('notify_customer'))
    return toolTurn(turn, request.model, 'notify_customer', { customer_id: order.customer_id });
  const refunded = results.get('refund');
  if (refunded === undefined)
    return toolTurn(turn, request.model, 'refund', { order_id: orderId, amount: order.amount });
  return finalTurn(turn, request.model, { refunded: refunded.amount ?? 0, refund_id: refunded.refund_id ?? null });
}

/** The content of each tool's latest result, by tool name (an error result reads as `{ error }`). */
function toolResultsOf(messages: readonly Message[]): Map<string, JsonObject> {
  const names = new Map<string, string>();
  const results = new Map<string, JsonObject>();
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === 'tool_use') names.set(part.id, part.name);
      if (part.type === 'tool_result') {
        const name = names.get(part.toolUseId);
        if (name !== undefined) results.set(name, isJsonObject(part.content) ? part.content : { value: part.content });
      }
    }
  }
  return results;
}

// Ids depend on the turn only: the provider keeps no state between calls.
function toolTurn(turn: number, model: string, name: string, input: JsonObject): ModelResponse {
  return {
    id: `msg_refund_${turn}`,
    model,
    content: [
      { type: 'text', text: `calling ${name}` },
      { type: 'tool_use', id: `toolu_refund_${turn}`, name, input },
    ],
    stopReason: 'tool_use',
    usage: { inputTokens: 10, outputTokens: 5 },
  };
}

function finalTurn(turn: number, model: string, outcome: JsonObject): ModelResponse {
  return {
    id: `msg_refund_${turn}`,
    model,
    content: [{ type: 'text', text: JSON.stringify(outcome) }],
    stopReason: 'end_turn',
    usage: { inputTokens: 10, outputTokens: 5 },
  };
}
