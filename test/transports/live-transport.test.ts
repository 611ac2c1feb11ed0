import { describe, expect, it } from 'vitest';
import type { ModelCall, ToolCall } from '../../src/transports/index.js';
import type { World } from '../../src/world/index.js';
import { ForkpointError, isForkpointError } from '../../src/errors/index.js';
import { liveTransport } from '../../src/transports/index.js';
import { finalTurn } from '../support/test-agents.js';

const modelCall = {
  step: 3,
  kind: 'model',
  index: 1,
  requestHash: 'h',
  canonical: '',
  request: { model: 'm', system: '', messages: [], tools: [], params: { maxTokens: 1 } },
} satisfies ModelCall;
const toolCall = {
  step: 4,
  kind: 'echo',
  index: 0,
  requestHash: 'h',
  canonical: '',
  request: { tool: 'echo', input: {} },
} satisfies ToolCall;

const worldWith = (parts: Partial<World>): World => ({
  model: { respond: () => Promise.resolve(finalTurn('{}')) },
  tools: {},
  ...parts,
});

async function failureOf(work: () => Promise<unknown>): Promise<{ code: string; message: string } | undefined> {
  try {
    await work();
  } catch (error) {
    if (isForkpointError(error)) return { code: error.code, message: error.message };
    return { code: 'not a ForkpointError', message: String(error) };
  }
  return undefined;
}

describe('liveTransport puts every failure on the right desk', () => {
  it('stops with PROVIDER_FAILED, naming the call, when the provider throws (a network error, a 5xx)', async () => {
    const down = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' }),
    });
    const failure = await failureOf(() =>
      liveTransport(worldWith({ model: { respond: () => Promise.reject(down) } })).model(modelCall),
    );
    expect(failure?.code).toBe('PROVIDER_FAILED');
    expect(failure?.message).toMatch(
      /^the model provider failed at model#1 \(step 3\): fetch failed \(ECONNREFUSED\); .*`forkpoint resume`/,
    );
  });

  it("keeps a provider's own refusal (PROVIDER_REJECTED) as it is", async () => {
    const rejected = new ForkpointError('PROVIDER_REJECTED', '400 invalid_request_error');
    expect(
      (
        await failureOf(() =>
          liveTransport(worldWith({ model: { respond: () => Promise.reject(rejected) } })).model(modelCall),
        )
      )?.code,
    ).toBe('PROVIDER_REJECTED');
  });

  it.each([
    ['a Date in it', { ...finalTurn('{}'), at: new Date(0) }, /not plain JSON at \$\.at: a Date/],
    [
      'no content list',
      { id: 'x', model: 'm', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 } },
      /not in the provider-neutral shape/,
    ],
    ['an unknown stop reason', { ...finalTurn('{}'), stopReason: 'paused' }, /not in the provider-neutral shape/],
  ])('fails with AGENT_CODE_FAILED when the provider answers with %s', async (_what, response, message) => {
    const failure = await failureOf(() =>
      liveTransport(worldWith({ model: { respond: () => Promise.resolve(response as never) } })).model(modelCall),
    );
    expect(failure?.code).toBe('AGENT_CODE_FAILED');
    expect(failure?.message).toMatch(message);
  });

  it('stops with TOOL_FAILED when a tool backend cannot be reached, and shows the model any other error', async () => {
    const unreachable = Object.assign(new Error('connect ETIMEDOUT 10.0.0.7:8443'), { code: 'ETIMEDOUT' });
    const failure = await failureOf(() =>
      liveTransport(worldWith({ tools: { echo: () => Promise.reject(unreachable) } })).tool(toolCall),
    );
    expect(failure).toEqual({
      code: 'TOOL_FAILED',
      message: expect.stringMatching(
        /^the backend of echo could not answer echo#0 \(step 4\): connect ETIMEDOUT 10\.0\.0\.7:8443; /,
      ),
    });
    const overloaded = Object.assign(new Error('Service Unavailable'), { status: 503 });
    expect(
      (
        await failureOf(() =>
          liveTransport(worldWith({ tools: { echo: () => Promise.reject(overloaded) } })).tool(toolCall),
        )
      )?.code,
    ).toBe('TOOL_FAILED');
    const answer = await liveTransport(
      worldWith({
        tools: { echo: () => Promise.reject(Object.assign(new Error('order 7 not found'), { status: 404 })) },
      }),
    ).tool(toolCall);
    expect(answer.response).toEqual({ output: { error: 'order 7 not found' }, isError: true });
  });

  it('fails with AGENT_CODE_FAILED when a tool returns something that is not JSON', async () => {
    const failure = await failureOf(() =>
      liveTransport(worldWith({ tools: { echo: () => ({ at: new Date(0) }) as never } })).tool(toolCall),
    );
    expect(failure?.code).toBe('AGENT_CODE_FAILED');
    expect(failure?.message).toMatch(
      /^the output of echo at echo#0 \(step 4\) is not plain JSON at \$\.at: a Date is not a plain object/,
    );
  });

  it('hands a tool a copy of its input: a tool that normalises it in place changes neither the run state nor a frozen answer', async () => {
    const trimming = worldWith({
      tools: {
        echo: (input) => {
          if (typeof input.id === 'string') Object.assign(input, { id: input.id.trim() });
          return { id: input.id ?? null };
        },
      },
    });
    const input = { id: ' A-1 ' };
    const call = { ...toolCall, request: { tool: 'echo', input } };
    expect((await liveTransport(trimming).tool(call)).response).toEqual({ output: { id: 'A-1' }, isError: false });
    expect(input).toEqual({ id: ' A-1 ' });
    // A recorded model turn is frozen: the same tool asked past the recording answers as it did when recorded.
    const frozen = { ...call, request: { tool: 'echo', input: Object.freeze({ id: ' A-1 ' }) } };
    expect((await liveTransport(trimming).tool(frozen)).response).toEqual({ output: { id: 'A-1' }, isError: false });
  });
});
