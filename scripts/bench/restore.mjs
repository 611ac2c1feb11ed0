// Restoring checkpoints of a recorded run, against the floor any restore pays: parsing the state's JSON.
import { perCall } from './timing.mjs';

/** Median ms to restore the checkpoint after step 1 and after step N-1, and to `JSON.parse` the latter's plain state. */
export async function benchRestore(engine, run) {
  const last = run.steps.length - 1;
  const restoredLast = engine.checkpoint(run.runId, last);
  if (restoredLast.context.step !== last) throw new Error(`checkpoint ${last} restored as step ${restoredLast.context.step}`);
  const plain = JSON.stringify({ value: restoredLast.value, context: restoredLast.context });
  const firstMs = await perCall(() => engine.checkpoint(run.runId, 1));
  const lastMs = await perCall(() => engine.checkpoint(run.runId, last));
  const parseMs = await perCall(() => JSON.parse(plain));
  return { step: last, firstMs, lastMs, parseMs, stateBytes: Buffer.byteLength(plain) };
}
