import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { tempFolder } from '../support/cli-harness.js';
import { syntheticWorld, testAgent } from '../support/test-agents.js';

describe('a full disk', () => {
  it('stops a recording with STORE_FULL, saying what to free, keeps every step committed before it, and the run resumes once there is room', async () => {
    const folder = tempFolder('forkpoint-full-');
    const path = join(folder.path, 'full.db');
    try {
      // The store's quota stands in for the disk: SQLite answers SQLITE_FULL either way.
      const tight = sqliteStore({ path, maxBytes: 256 * 1024 });
      const agent = testAgent({ stepCap: 500 });
      let caught: unknown;
      try {
        await createEngine({ store: tight }).record({
          agent,
          world: syntheticWorld({ toolCalls: 200, resultBytes: 2048 }),
          input: { n: 1 },
          runId: 'f0110000',
        });
      } catch (error) {
        caught = error;
      }
      await tight.close();
      expect(isForkpointError(caught, 'STORE_FULL')).toBe(true);
      expect((caught as Error).message).toMatch(
        /is full, or the database reached its size limit .*Free space there .*`forkpoint resume`/,
      );

      const roomy = sqliteStore({ path });
      const engine = createEngine({ store: roomy });
      // Its ending still fitted: it failed with the code, at the step it could not write.
      const stopped = await engine.getRun('f0110000');
      const kept = stopped.steps.length;
      expect(stopped).toMatchObject({ status: 'failed', error: { code: 'STORE_FULL', step: kept + 1 } });
      expect(kept).toBeGreaterThan(5);
      expect((await roomy.readSteps('f0110000')).map((row) => row.step)).toEqual(
        Array.from({ length: kept + 1 }, (_, i) => i),
      );
      const resumed = await engine.resume({
        runId: 'f0110000',
        agent,
        world: syntheticWorld({ toolCalls: 200, resultBytes: 2048 }),
      });
      expect(resumed).toMatchObject({ status: 'completed', resumed: { fromStep: kept + 1, after: 'STORE_FULL' } });
      await roomy.close();
    } finally {
      folder.cleanup();
    }
  });

  it('fails to create a store that does not fit with STORE_FULL, not as a corrupt file, and leaves no schema behind', async () => {
    const folder = tempFolder('forkpoint-full-');
    const path = join(folder.path, 'small.db');
    try {
      let caught: unknown;
      try {
        await sqliteStore({ path, maxBytes: 64 * 1024 }).close();
      } catch (error) {
        caught = error;
      }
      expect(isForkpointError(caught, 'STORE_FULL')).toBe(true);
      // The migrations ran in one transaction: none of them stayed, so the file opens as a new store once there is room.
      const roomy = sqliteStore({ path });
      expect(await roomy.listRuns()).toEqual([]);
      await roomy.close();
    } finally {
      folder.cleanup();
    }
  });
});
