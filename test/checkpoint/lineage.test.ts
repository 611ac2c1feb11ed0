import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { lineageOf } from '../../src/checkpoint/index.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';

const changed = (echoed: string) => ({ kind: 'tool-result', output: { echoed } }) as const;

describe('lineageOf', () => {
  it('leaves out a middle run whose own rows start after the step its fork forked at', async () => {
    const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
    const agent = testAgent();
    const world = syntheticWorld({ toolCalls: 20 });
    const run = await engine.record({ agent, world, input: { task: 'nested' } });
    const child = await engine.fork({ parentRunId: run.runId, atStep: 30, override: changed('child'), agent, world });
    const grandchild = await engine.fork({
      parentRunId: child.runId,
      atStep: 10,
      override: changed('grandchild'),
      agent,
      world,
    });
    expect(await lineageOf(engine.store, grandchild.runId)).toEqual([
      { runId: run.runId, from: 0, to: 9 },
      { runId: grandchild.runId, from: 10, to: Number.MAX_SAFE_INTEGER },
    ]);
    const steps = (await engine.getRun(grandchild.runId)).steps;
    expect(steps.map((step) => step.step)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect(steps[9]).toMatchObject({ provenance: 'override', response: { output: { echoed: 'grandchild' } } });
    // Its checkpoints past the fork hold its own conversation, not its grandparent's as well.
    const restored = await engine.checkpoint(grandchild.runId, 12);
    expect(restored.context.messages).toHaveLength((await engine.checkpoint(run.runId, 12)).context.messages.length);
    expect(restored.messageDigests.slice(0, 10)).toEqual(
      (await engine.checkpoint(run.runId, 9)).messageDigests.slice(0, 10),
    );
  });
});
