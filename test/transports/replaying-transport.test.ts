import { describe, expect, it } from 'vitest';
import type { Cassette } from '../../src/cassette/index.js';
import { ReplayDivergence } from '../../src/analysis/index.js';
import type { ToolCall, Transport } from '../../src/transports/index.js';
import { CANONICAL_FORM, CASSETTE_FORMAT, CassetteIndex } from '../../src/cassette/index.js';
import { replayingTransport } from '../../src/transports/index.js';

const hash = (c: string) => c.repeat(16);
const toolEntry = (step: number, kind: string, index: number, h: string, output: unknown) => ({
  step,
  kind,
  index,
  requestHash: h,
  request: { input: { n: index }, tool: kind },
  response: { output, isError: false },
});

const cassette: Cassette = {
  format: CASSETTE_FORMAT,
  canonicalForm: CANONICAL_FORM,
  agent: { name: 'test-agent', build: 'baseline', codeHash: '0'.repeat(16) },
  source: {
    runId: '00000001',
    scenario: null,
    input: {},
    worldAt: null,
    seed: 1,
    recordedAt: 'x',
    status: 'completed',
    outcome: null,
    error: null,
  },
  messages: [],
  entries: [
    toolEntry(1, 'echo', 0, hash('a'), { v: 1 }),
    toolEntry(2, 'echo', 1, hash('b'), { v: 2 }),
    toolEntry(3, 'write', 0, hash('c'), { v: 3 }),
  ] as Cassette['entries'],
};

const call = (kind: string, index: number, h: string, input: Record<string, number> = { n: index }): ToolCall => ({
  step: index + 1,
  kind,
  index,
  requestHash: h,
  canonical: JSON.stringify({ input, tool: kind }),
  request: { tool: kind, input },
});

async function divergenceOf(promise: Promise<unknown>): Promise<ReplayDivergence> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ReplayDivergence) return error;
    throw error;
  }
  throw new Error('expected a divergence');
}

describe('replayingTransport', () => {
  it('serves a recorded answer at kind:index:hash, frozen and marked recorded', async () => {
    const transport = replayingTransport({ mode: 'strict', index: new CassetteIndex(cassette), runId: 'r' });
    const answer = await transport.tool(call('echo', 0, hash('a')));
    expect(answer).toEqual({ response: { output: { v: 1 }, isError: false }, provenance: 'recorded' });
    // Nothing can change what the machine is given, so the cassette's own answer is served.
    expect(Object.isFrozen(answer.response)).toBe(true);
    expect(Object.isFrozen(answer.response.output)).toBe(true);
    expect(() => {
      (answer.response.output as { v: number }).v = 2;
    }).toThrow(TypeError);
  });

  it('classifies a miss at a recorded position as changed, with the field diff', async () => {
    const transport = replayingTransport({ mode: 'strict', index: new CassetteIndex(cassette), runId: 'r' });
    const error = await divergenceOf(transport.tool(call('echo', 1, hash('f'), { n: 7 })));
    expect(error.runId).toBe('r');
    expect(error.divergence).toMatchObject({
      classification: 'changed',
      kind: 'echo',
      index: 1,
      actualHash: hash('f'),
      recordedHashes: [hash('b')],
      changed: ['input'],
      diff: [{ path: 'input.n', before: '1', after: '7' }],
    });
  });

  it('classifies a recorded hash asked at another position as reordered, and an unknown one as new-call', async () => {
    const transport = replayingTransport({
      mode: 'fidelity',
      onMiss: 'stop',
      index: new CassetteIndex(cassette),
      runId: 'r',
    });
    expect((await divergenceOf(transport.tool(call('echo', 2, hash('b'))))).divergence.classification).toBe(
      'reordered',
    );
    expect((await divergenceOf(transport.tool(call('delete', 0, hash('d'))))).divergence.classification).toBe(
      'new-call',
    );
    expect(transport.divergences().map((divergence) => divergence.classification)).toEqual(['reordered', 'new-call']);
  });

  it('lets the same request recur at another position and get its own answer (retries)', async () => {
    const retried: Cassette = {
      ...cassette,
      entries: [
        toolEntry(1, 'echo', 0, hash('a'), 'first'),
        toolEntry(2, 'echo', 1, hash('a'), 'second'),
      ] as Cassette['entries'],
    };
    const transport = replayingTransport({ mode: 'strict', index: new CassetteIndex(retried), runId: 'r' });
    expect((await transport.tool(call('echo', 0, hash('a')))).response.output).toBe('first');
    expect((await transport.tool(call('echo', 1, hash('a')))).response.output).toBe('second');
  });

  it('reports entries the replay never asked for as dropped calls', async () => {
    const transport = replayingTransport({ mode: 'strict', index: new CassetteIndex(cassette), runId: 'r' });
    await transport.tool(call('echo', 0, hash('a')));
    expect(transport.droppedCalls().map((finding) => [finding.classification, finding.kind, finding.index])).toEqual([
      ['dropped-call', 'echo', 1],
      ['dropped-call', 'write', 0],
    ]);
  });

  it('in fidelity mode with onMiss live, goes live from the first miss and keeps reporting misses', async () => {
    const asked: string[] = [];
    const live: Transport = {
      model: () => Promise.reject(new Error('unused')),
      tool: (liveCall) => {
        asked.push(`${liveCall.kind}#${liveCall.index}`);
        return Promise.resolve({ response: { output: 'live', isError: false }, provenance: 'live' });
      },
    };
    const transport = replayingTransport({
      mode: 'fidelity',
      onMiss: 'live',
      live,
      index: new CassetteIndex(cassette),
      runId: 'r',
    });
    expect((await transport.tool(call('echo', 0, hash('a')))).provenance).toBe('recorded');
    expect(await transport.tool(call('echo', 1, hash('x')))).toEqual({
      response: { output: 'live', isError: false },
      provenance: 'live',
    });
    expect((await transport.tool(call('write', 0, hash('c')))).provenance).toBe('live');
    await transport.tool(call('write', 1, hash('y')));
    expect(asked).toEqual(['echo#1', 'write#0', 'write#1']);
    expect(transport.divergences().map((divergence) => `${divergence.kind}#${divergence.index}`)).toEqual([
      'echo#1',
      'write#1',
    ]);
  });

  it('reports each fact once: a position asked with another hash is a divergence, not also a dropped call', async () => {
    const live: Transport = {
      model: () => Promise.reject(new Error('unused')),
      tool: () => Promise.resolve({ response: { output: 'live', isError: false }, provenance: 'live' }),
    };
    const transport = replayingTransport({
      mode: 'fidelity',
      onMiss: 'live',
      live,
      index: new CassetteIndex(cassette),
      runId: 'r',
    });
    // echo#0 and write#0 miss with other hashes; echo#1 is never asked for at all.
    await transport.tool(call('echo', 0, hash('x')));
    await transport.tool(call('write', 0, hash('y')));
    expect(
      transport.divergences().map((finding) => [finding.classification, `${finding.kind}#${finding.index}`]),
    ).toEqual([
      ['changed', 'echo#0'],
      ['changed', 'write#0'],
    ]);
    expect(
      transport
        .droppedCalls()
        .map((finding) => [finding.classification, `${finding.kind}#${finding.index}`, finding.recordedHashes]),
    ).toEqual([['dropped-call', 'echo#1', [hash('b')]]]);
  });
});
