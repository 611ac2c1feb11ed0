// Builds the bench-scale database: `runs` recordings of the synthetic agent (9 steps, small tool results)
// through the engine, each keeping its full tier, stamped over four simulated days so that gc at the
// end of them finds the first quarter expired.
import { randomUUID } from 'node:crypto';
import { createEngine } from '../../dist/src/engine/index.js';
import { sqliteStore } from '../../dist/src/store/index.js';
import { INPUT, syntheticAgent, syntheticWorld } from './synthetic-agent.mjs';

/** The simulated start of the recordings. */
export const T0 = Date.parse('2026-03-01T00:00:00.000Z');
/** The recordings are spread over this span; gc runs at its end, when the first quarter is past 72 hours. */
export const SPAN_MS = 4 * 24 * 3600 * 1000;
/** The instant of the measurements after the build: the end of the span. */
export const MEASURED_AT = new Date(T0 + SPAN_MS);
/** Tool calls per run (9 steps) and the bytes of each tool result (stored as a blob of its own). */
export const SHAPE = { toolCalls: 4, resultBytes: 400 };

/**
 * The synthetic world of one run, whose tool results are the run's own, as real ones are (a claim, its
 * documents): the bench's plain synthetic world answers every run alike, so that all runs would share
 * one set of blobs and a purge would free none.
 */
export function scaleWorld() {
  const world = syntheticWorld({ ...SHAPE, resultBytes: 0 });
  const payload = `${randomUUID()} ${'x'.repeat(SHAPE.resultBytes)}`;
  return { ...world, tools: { echo: (input) => ({ ...world.tools.echo(input), payload }) } };
}

/** Records `runs` runs into `path`, calling `onProgress(done)` every few thousand. */
export async function buildDatabase(path, runs, onProgress) {
  let i = 0;
  const store = sqliteStore({ path });
  const engine = createEngine({ store, clock: () => new Date(T0 + Math.floor((i * SPAN_MS) / runs)) });
  try {
    for (; i < runs; i++) {
      await engine.record({ agent: syntheticAgent, world: scaleWorld(), input: INPUT });
      if ((i + 1) % 5000 === 0) onProgress(i + 1);
    }
  } finally {
    await store.close();
  }
}
