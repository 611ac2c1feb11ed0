import type { ToolSpec } from '../agent/index.js';
import type { Cassette, CassetteEntry } from '../cassette/index.js';
import { CANONICAL_FORM, CASSETTE_FORMAT, RequestHasher } from '../cassette/index.js';
import type {
  ApprovalAnswer,
  Message,
  ModelRequest,
  ModelResponse,
  ToolRequest,
  ToolResponse,
} from '../conversation/index.js';
import { approvalRequestOf, approvalResponseOf } from '../conversation/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import type { ApprovalCall, ModelCall, ToolCall } from '../transports/index.js';
import type { World } from '../world/index.js';
import { itemAt } from './item-at.js';

/** One call of the conformance script: what is asked, and what each source answers. */
export type ScriptedCall =
  | { readonly type: 'model'; readonly call: ModelCall; readonly live: ModelResponse }
  | {
      readonly type: 'tool';
      readonly call: ToolCall;
      /** The world's answer now, as the live transport renders it (a thrown error is `{ error }`). */
      readonly live: ToolResponse;
      /** Whether the tool is declared read-only. */
      readonly readOnly: boolean;
    }
  | {
      readonly type: 'approval';
      readonly call: ApprovalCall;
      /** The answer the recording holds; the world has nobody to give one now. */
      readonly recorded: ApprovalAnswer;
    };

/**
 * What the transport conformance suite runs a transport over, made afresh for
 * every test: a world, a recording of the script made when that world
 * answered otherwise (so a transport serving one where the other belongs is
 * caught), the build's tool specs, and the script itself, in driver order.
 */
export interface TransportFixture {
  /** A pure world: its answers are functions of the request. Its `lookup` tool normalises its input in place, as careless tools do. */
  readonly world: World;
  /** Every request the world was asked, in order: `model`, or the tool's name and input. */
  readonly asked: readonly string[];
  /** `lookup` (read-only) and `refund` (side-effecting, with a simulator). */
  readonly tools: readonly ToolSpec[];
  /** The recording: one entry per scripted call, each answered otherwise than the world answers now. */
  readonly cassette: Cassette;
  /**
   * model#0, lookup#0, lookup#1 (the same request: a retry), lookup#2 (an
   * error), approval#0 (a person's answer about refund#0), refund#0, model#1.
   */
  readonly script: readonly ScriptedCall[];
  /** What `refund`'s simulator answers to refund#0. */
  readonly simulated: ToolResponse;
  /** lookup#0 and lookup#1 with requests the recording does not hold (an input of another length, so of another shape too), and the world's answers. */
  readonly misses: readonly { readonly call: ToolCall; readonly live: ToolResponse }[];
}

const MODEL = 'conformance-model';
const PARAMS = { maxTokens: 256 } as const;
const FIRST: Message = { role: 'user', content: [{ type: 'text', text: 'Refund order A-1 if it is open.' }] };

const turn = (id: string, content: ModelResponse['content']): ModelResponse => ({
  id,
  model: MODEL,
  content,
  stopReason: content.some((part) => part.type === 'tool_use') ? 'tool_use' : 'end_turn',
  usage: { inputTokens: 10, outputTokens: 5 },
});
const useLookup = (id: string): ModelResponse =>
  turn(id, [{ type: 'tool_use', id: `toolu_${id}`, name: 'lookup', input: { id: ' A-1 ' } }]);
const ok = (output: JsonObject): ToolResponse => ({ output, isError: false });
const failed = (output: JsonObject): ToolResponse => ({ output, isError: true });

const refundSpec: ToolSpec = {
  name: 'refund',
  description: 'Refunds an order.',
  inputSchema: { type: 'object' },
  readOnly: false,
  simulate: ({ input }) => ({ refunded: input.amount ?? null, simulated: true }),
};
const lookupSpec: ToolSpec = {
  name: 'lookup',
  description: 'Looks an order up.',
  inputSchema: { type: 'object' },
  readOnly: true,
};

const parsed = (text: string): JsonValue => JSON.parse(text) as JsonValue;
const entryOf = (
  call: ModelCall | ToolCall | ApprovalCall,
  request: JsonValue,
  response: JsonValue,
): CassetteEntry => ({
  step: call.step,
  kind: call.kind,
  index: call.index,
  requestHash: call.requestHash,
  request,
  response,
});

/** A fresh fixture. With `worldDown`, every model and tool backend of the world is unreachable. */
export function transportFixture(options: { readonly worldDown?: boolean } = {}): TransportFixture {
  const asked: string[] = [];
  const unreachable = (): Error =>
    Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' }),
    });
  const world: World = {
    model: {
      // The executor's throw rejects the promise, as a provider's failed call does.
      respond: (request) =>
        new Promise((resolve) => {
          asked.push('model');
          if (options.worldDown === true) throw unreachable();
          resolve(
            request.messages.length === 1 ? useLookup('live_0') : turn('live_1', [{ type: 'text', text: 'refunded' }]),
          );
        }),
    },
    tools: {
      lookup: (input) => {
        asked.push(`lookup ${JSON.stringify(input)}`);
        if (options.worldDown === true) throw unreachable();
        if (typeof input.id === 'string') Object.assign(input, { id: input.id.trim() });
        if (input.id === 'missing') throw new Error('order missing not found');
        return { id: input.id ?? null, status: 'open' };
      },
      refund: (input) => {
        asked.push(`refund ${JSON.stringify(input)}`);
        if (options.worldDown === true) throw unreachable();
        return { refunded: input.amount ?? null };
      },
    },
  };

  const hasher = new RequestHasher();
  const script: ScriptedCall[] = [];
  const entries: CassetteEntry[] = [];
  const calls: Record<string, number> = {};
  const next = (kind: string) => ({ step: script.length + 1, kind, index: (calls[kind] = (calls[kind] ?? -1) + 1) });
  const model = (messages: readonly Message[], live: ModelResponse, recorded: ModelResponse): void => {
    const request: ModelRequest = { model: MODEL, system: 'You refund orders.', messages, tools: [], params: PARAMS };
    const hashed = hasher.hashModelRequest(request);
    const call: ModelCall = { ...next('model'), ...hashed, request };
    script.push({ type: 'model', call, live });
    entries.push(entryOf(call, parsed(hashed.canonical), recorded));
  };
  const tool = (request: ToolRequest, live: ToolResponse, recorded: ToolResponse): void => {
    const call: ToolCall = { ...next(request.tool), ...hasher.hashToolRequest(request), request };
    script.push({ type: 'tool', call, live, readOnly: request.tool === 'lookup' });
    entries.push(entryOf(call, parsed(call.canonical), recorded));
  };
  // A person's answer about the call `request` stands for: asked of the recording only, never of the world.
  const approval = (request: ToolRequest, recorded: ApprovalAnswer): void => {
    const use = { type: 'tool_use', id: 'toolu_refund', name: request.tool, input: request.input } as const;
    const asked = approvalRequestOf(use, recorded.requestHash);
    const call: ApprovalCall = {
      ...next('approval'),
      ...hasher.hashToolRequest(asked),
      request: asked,
      question: asked.input,
    };
    script.push({ type: 'approval', call, recorded });
    entries.push(entryOf(call, parsed(call.canonical), approvalResponseOf(recorded)));
  };
  const asking = useLookup('recorded_0');
  model([FIRST], useLookup('live_0'), asking);
  tool(
    { tool: 'lookup', input: { id: ' A-1 ' } },
    ok({ id: 'A-1', status: 'open' }),
    failed({ error: 'timed out', retryable: true }),
  );
  tool(
    { tool: 'lookup', input: { id: ' A-1 ' } },
    ok({ id: 'A-1', status: 'open' }),
    ok({ id: 'A-1', status: 'pending' }),
  );
  tool(
    { tool: 'lookup', input: { id: 'missing' } },
    failed({ error: 'order missing not found' }),
    failed({ error: 'no such order' }),
  );
  const refund: ToolRequest = { tool: 'refund', input: { id: 'A-1', amount: 120 } };
  approval(refund, {
    approved: true,
    by: 'dana',
    at: '2026-03-04T09:00:00.000Z',
    note: 'invoice checked',
    requestHash: hasher.hashToolRequest(refund).requestHash,
  });
  tool(refund, ok({ refunded: 120 }), ok({ refunded: 120, reference: 'R-7' }));
  const conversation: readonly Message[] = [
    FIRST,
    { role: 'assistant', content: asking.content },
    {
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: 'toolu_recorded_0', content: { refunded: 120 }, isError: false }],
    },
  ];
  model(
    conversation,
    turn('live_1', [{ type: 'text', text: 'refunded' }]),
    turn('recorded_1', [{ type: 'text', text: 'refunded, reference R-7' }]),
  );

  const miss = (index: number, id: string) => {
    const request: ToolRequest = { tool: 'lookup', input: { id } };
    return {
      call: { step: index + 2, kind: 'lookup', index, ...hasher.hashToolRequest(request), request },
      live: ok({ id, status: 'open' }),
    };
  };
  const digests = hasher.messageDigests(conversation);
  return {
    world,
    asked,
    tools: [lookupSpec, refundSpec],
    cassette: {
      format: CASSETTE_FORMAT,
      canonicalForm: CANONICAL_FORM,
      agent: { name: 'conformance', build: 'baseline', codeHash: '0'.repeat(16) },
      source: {
        runId: '00c0ffee',
        scenario: null,
        input: {},
        worldAt: null,
        seed: null,
        recordedAt: '2026-03-04T09:00:00.000Z',
        status: 'completed',
        outcome: null,
        error: null,
      },
      messages: conversation.map((message, i) => ({ digest: itemAt(digests, i), message })),
      entries,
    },
    script,
    simulated: ok({ refunded: 120, simulated: true }),
    misses: [miss(0, 'B-2020'), miss(1, 'B-20300')],
  };
}
