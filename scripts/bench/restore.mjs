// Restoring checkpoints of a recorded run, against the floor any restore pays: parsing the state's JSON.
import { median, perCall, perCallPaired, timeOnce } from './timing.mjs';

/**
 * Median ms to restore the checkpoint after step 1 and after step N-1, and to `JSON.parse` the latter's
 * plain state; each after 200 warm-up calls, as the restore path is not the recording path the JIT has
 * seen so far. The last restore and its parse alternate batch by batch, and their ratio is the median of
 * the batches' ratios.
 */
export async function benchRestore(engine, run) {
  const last = run.steps.length - 1;
  const restoredLast = await engine.checkpoint(run.runId, last);
  if (restoredLast.context.step !== last)
    throw new Error(`checkpoint ${last} restored as step ${restoredLast.context.step}`);
  const plain = JSON.stringify({ value: restoredLast.value, context: restoredLast.context });
  const timing = { warmup: 200 };
  const firstMs = await perCall(() => engine.checkpoint(run.runId, 1), timing);
  const paired = await perCallPaired(
    () => engine.checkpoint(run.runId, last),
    () => JSON.parse(plain),
    timing,
  );
  return {
    step: last,
    firstMs,
    lastMs: paired.aMs,
    parseMs: paired.bMs,
    lastOverParse: paired.ratio,
    stateBytes: Buffer.byteLength(plain),
  };
}

/**
 * Median ms of a fork at step N-1 of the run (a tool step) with a changed tool result, resumed live to
 * the end: restore, the override step and the final model turn, each committed. The peer's figure for
 * this is a fork with resume at 201 steps.
 */
export async function benchForkResume(engine, run, agent, world) {
  const atStep = run.steps.length - 1;
  const fork = () =>
    engine.fork({
      parentRunId: run.runId,
      atStep,
      override: { kind: 'tool-result', output: { echoed: 'changed' } },
      agent,
      world: world,
    });
  const first = await fork();
  if (first.status !== 'completed') throw new Error(`the fork at step ${atStep} ended ${first.status}`);
  const times = [];
  for (let i = 0; i < 15; i++) times.push(await timeOnce(fork));
  return { atStep, ms: median(times) };
}
