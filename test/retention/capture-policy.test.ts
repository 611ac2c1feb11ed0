import { describe, expect, it } from 'vitest';
import type { FullTierPurge, Store } from '../../src/store/index.js';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';

describe('the capture policy at scale', () => {
  it('drops a run in one write, its structural record with its purge, and reads nothing of the other runs', async () => {
    const inner = sqliteStore({ path: ':memory:' });
    const calls: string[] = [];
    const purges: FullTierPurge[] = [];
    const store: Store = {
      ...inner,
      listRuns: () => {
        calls.push('listRuns');
        return inner.listRuns();
      },
      saveStructural: async (runId, body) => {
        calls.push('saveStructural');
        await inner.saveStructural(runId, body);
      },
      purgeRuns: (batch) => {
        calls.push('purgeRuns');
        purges.push(...batch);
        return inner.purgeRuns(batch);
      },
    };
    const engine = createEngine({ store });
    const agent = testAgent();
    const world = syntheticWorld({ toolCalls: 2, resultBytes: 300 });
    for (let i = 0; i < 3; i++) await engine.record({ agent, world, input: { i } });
    const dropped = await engine.record({ agent, world, input: { i: 3 }, capture: { keep: 'errors+sample', rate: 0 } });
    expect(calls).toEqual(['purgeRuns']);
    expect(purges).toHaveLength(1);
    expect(purges[0]).toMatchObject({ runId: dropped.runId, purge: { reason: 'capture-policy' } });
    expect(await inner.readStructural(dropped.runId)).toBe(purges[0]!.structural);
    expect((await engine.cassette(dropped.runId, 'structural')).entries).toHaveLength(dropped.steps.length);
    await inner.close();
  });
});
