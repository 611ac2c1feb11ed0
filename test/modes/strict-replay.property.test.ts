import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentBuild } from '../../src/agent/index.js';
import type { Cassette } from '../../src/cassette/index.js';
import type { JsonObject } from '../../src/json/index.js';
import type { ReplayOptions } from '../../src/modes/index.js';
import type { World } from '../../src/world/index.js';
import { createEngine } from '../../src/engine/index.js';
import { restoreCheckpoint } from '../../src/checkpoint/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';

const trajectory = fc.record({
  toolCalls: fc.integer({ min: 0, max: 6 }),
  batch: fc.integer({ min: 1, max: 3 }),
  resultBytes: fc.constantFrom(8, 300, 3000),
  ok: fc.boolean(),
});

type BuildMutation = (build: AgentBuild) => AgentBuild;
const buildMutations: Record<string, BuildMutation> = {
  none: (build) => build,
  system: (build) => ({ ...build, systemPrompt: `${String(build.systemPrompt)} Be brief.` }),
  toolSpec: (build) => ({
    ...build,
    tools: build.tools.map((tool) => ({ ...tool, description: `${tool.description}!` })),
  }),
  params: (build) => ({ ...build, params: { maxTokens: 999 } }),
  input: (build) => ({ ...build, renderInput: (input: JsonObject) => `Please run ${JSON.stringify(input)}` }),
  stepCap: (build) => ({ ...build, stepCap: 2 }),
  guard: (build) => ({
    ...build,
    guardToolResult: () => ({ action: 'finish' as const, outcome: { ok: true, early: true } }),
  }),
};

type CassetteMutation = (cassette: Cassette, at: number) => Cassette;
const cassetteMutations: Record<string, CassetteMutation> = {
  none: (cassette) => cassette,
  drop: (cassette, at) => ({
    ...cassette,
    entries: cassette.entries.filter((_entry, i) => i !== at % Math.max(1, cassette.entries.length)),
  }),
  rehash: (cassette, at) => ({
    ...cassette,
    entries: cassette.entries.map((entry, i) =>
      i === at % Math.max(1, cassette.entries.length) ? { ...entry, requestHash: 'f'.repeat(16) } : entry,
    ),
  }),
  reorder: (cassette) => ({
    ...cassette,
    entries: [...cassette.entries].reverse().map((entry, i) => ({ ...entry, step: i + 1 })),
  }),
};

function tripwire(): { world: World; calls: () => number } {
  let calls = 0;
  const trip = (): never => {
    calls++;
    throw new Error('live call');
  };
  return { world: { model: { respond: () => trip() }, tools: { echo: trip, write: trip } }, calls: () => calls };
}

describe('strict replay (property)', () => {
  it('never calls a live model or tool, whatever the build and cassette mutations', async () => {
    await fc.assert(
      fc.asyncProperty(
        trajectory,
        fc.constantFrom(...Object.keys(buildMutations)),
        fc.constantFrom(...Object.keys(cassetteMutations)),
        fc.nat(),
        async (shape, buildMutation, cassetteMutation, at) => {
          const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
          const agent = testAgent();
          const recorded = await engine.record({
            agent,
            world: syntheticWorld({ ...shape, outcome: { ok: shape.ok } }),
            input: { n: 1 },
          });
          const cassette = cassetteMutations[cassetteMutation]!(await engine.cassette(recorded.runId), at);
          const { world, calls } = tripwire();
          const options = {
            agent: buildMutations[buildMutation]!(agent),
            cassette,
            mode: 'strict',
            onMiss: 'live',
            world: world,
          };
          const replay = await engine.replay(options as unknown as ReplayOptions);
          expect(calls()).toBe(0);
          expect(replay.steps.every((step) => step.provenance === 'recorded')).toBe(true);
          expect(['completed', 'failed', 'diverged']).toContain(replay.status);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('reproduces every request hash and every checkpoint of an unchanged build', async () => {
    await fc.assert(
      fc.asyncProperty(trajectory, async (shape) => {
        const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
        const agent = testAgent();
        const recorded = await engine.record({
          agent,
          world: syntheticWorld({ ...shape, outcome: { ok: shape.ok } }),
          input: { n: 1 },
        });
        const replay = await engine.replay({ agent, cassette: await engine.cassette(recorded.runId), mode: 'strict' });
        expect(replay.status).toBe(recorded.status);
        expect(replay.findings).toEqual([]);
        expect(replay.steps.map((step) => step.requestHash)).toEqual(recorded.steps.map((step) => step.requestHash));
        for (let step = 0; step <= recorded.steps.length; step++) {
          expect(await restoreCheckpoint(engine.store, replay.runId, step)).toEqual(
            await restoreCheckpoint(engine.store, recorded.runId, step),
          );
        }
      }),
      { numRuns: 40 },
    );
  });
});
