import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { assertRunId, RUN_ID_ATTEMPTS } from '../../src/engine/index.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';

const agent = testAgent();
const world = syntheticWorld({ toolCalls: 1 });

/** An engine whose id source answers from a list (then fails the test), counting its calls. */
function engineWithIds(ids: readonly string[]) {
  const queue = [...ids];
  let minted = 0;
  const engine = createEngine({
    store: sqliteStore({ path: ':memory:' }),
    newRunId: () => {
      minted++;
      const next = queue.shift();
      if (next === undefined) throw new Error('the test ran out of ids');
      return next;
    },
  });
  return { engine, minted: () => minted };
}

async function codeOf(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
  } catch (error) {
    return isForkpointError(error) ? error.code : String(error);
  }
  return undefined;
}

describe('run ids', () => {
  it('mints 12 lowercase hex characters by default, a different one each time', async () => {
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await engine.record({ agent, world, input: { i } })).runId);
    expect([...ids].every((id) => /^[0-9a-f]{12}$/.test(id))).toBe(true);
    expect(ids.size).toBe(5);
  });

  it('accepts the 12-hex ids it mints and the 8-hex ids of older runs, and nothing else', () => {
    for (const id of ['9b40c1d5', '9b40c1d5e7a2'])
      expect(() => {
        assertRunId(id);
      }).not.toThrow();
    for (const id of ['9b40c1d', '9b40c1d5e7', '9b40c1d5e7a2f', '9B40C1D5', '9b40c1d5-e7a'])
      expect(() => {
        assertRunId(id);
      }).toThrow(/12 lowercase hex characters \(or 8/);
  });

  it('records under a fresh id when the minted one is taken', async () => {
    const { engine, minted } = engineWithIds(['aaaaaaaaaaaa', 'aaaaaaaaaaaa', 'bbbbbbbbbbbb']);
    await engine.record({ agent, world, input: { first: true } });
    const second = await engine.record({
      agent,
      world,
      input: { second: 'yes' },
      capture: { keep: 'errors+sample', rate: 0 },
    });
    expect(second.runId).toBe('bbbbbbbbbbbb');
    expect(minted()).toBe(3);
    expect(second.capture).toMatchObject({ kept: false });
    expect(await engine.getRunSummary('bbbbbbbbbbbb')).toMatchObject({
      input: { second: 'aaa' },
      retention: { purge: { reason: 'capture-policy' } },
    });
    expect((await engine.getRunSummary('aaaaaaaaaaaa')).input).toEqual({ first: true });
  });

  it('retries forks, re-executions and replays too, each under the id it was stored with', async () => {
    const { engine } = engineWithIds([
      '0000000000aa',
      '0000000000aa',
      '0000000000bb',
      '0000000000aa',
      '0000000000cc',
      '0000000000aa',
      '0000000000dd',
    ]);
    const parent = await engine.record({ agent, world, input: {} });
    const fork = await engine.fork({
      parentRunId: parent.runId,
      atStep: 2,
      agent,
      world,
      override: { kind: 'tool-result', output: { other: true } },
    });
    const again = await engine.reexecute({ sourceRunId: parent.runId, agent, world });
    const replay = await engine.replay({ agent, cassette: await engine.cassette(parent.runId), mode: 'strict' });
    expect([fork.runId, again.runId, replay.runId]).toEqual(['0000000000bb', '0000000000cc', '0000000000dd']);
    expect((await engine.lineage(parent.runId)).tree.children.map((child) => child.run.runId).sort()).toEqual([
      '0000000000bb',
      '0000000000cc',
      '0000000000dd',
    ]);
  });

  it('never replaces an id the caller chose: RUN_EXISTS, and nothing minted', async () => {
    const { engine, minted } = engineWithIds([]);
    await engine.record({ agent, world, input: {}, runId: '9b40c1d5' });
    expect(await codeOf(engine.record({ agent, world, input: {}, runId: '9b40c1d5' }))).toBe('RUN_EXISTS');
    expect(
      await codeOf(
        engine.replay({ agent, cassette: await engine.cassette('9b40c1d5'), mode: 'strict', runId: '9b40c1d5' }),
      ),
    ).toBe('RUN_EXISTS');
    expect(minted()).toBe(0);
  });

  it('gives up with RUN_EXISTS after a few ids when the id source repeats itself', async () => {
    const { engine, minted } = engineWithIds(Array.from({ length: 1 + RUN_ID_ATTEMPTS }, () => 'cccccccccccc'));
    await engine.record({ agent, world, input: {} });
    expect(await codeOf(engine.record({ agent, world, input: {} }))).toBe('RUN_EXISTS');
    expect(minted()).toBe(1 + RUN_ID_ATTEMPTS);
  });
});
