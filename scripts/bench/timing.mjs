// Timing helpers. Every figure is a median over rounds after a warm-up; no figure is asserted.

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Milliseconds since `started` (a `process.hrtime.bigint()`). */
export const msSince = (started) => Number(process.hrtime.bigint() - started) / 1e6;

/** Wall milliseconds of one call of `fn` (sync or async). */
export async function timeOnce(fn) {
  const started = process.hrtime.bigint();
  await fn();
  return msSince(started);
}

/** How many calls of `fn` last about `batchMs`, judged from `warmup` calls (which also warm it). */
async function batchFor(fn, warmup, batchMs) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < warmup; i++) await fn();
  return Math.max(1, Math.round(batchMs / (msSince(started) / warmup)));
}

/** Milliseconds per call over one batch. */
async function timeBatch(fn, batch) {
  const began = process.hrtime.bigint();
  for (let i = 0; i < batch; i++) await fn();
  return msSince(began) / batch;
}

/**
 * Two per-call timings taken in alternating batches, and the median of their
 * ratio batch by batch: a ratio of two figures measured minutes apart would
 * also measure how the machine drifted in between.
 */
export async function perCallPaired(fnA, fnB, { rounds = 9, warmup = 5, batchMs = 25 } = {}) {
  const batchA = await batchFor(fnA, warmup, batchMs);
  const batchB = await batchFor(fnB, warmup, batchMs);
  const a = [];
  const b = [];
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    a.push(await timeBatch(fnA, batchA));
    b.push(await timeBatch(fnB, batchB));
    ratios.push(a[round] / b[round]);
  }
  return { aMs: median(a), bMs: median(b), ratio: median(ratios) };
}

/**
 * Median milliseconds per call of `fn` for calls too short to time one by one:
 * after `warmup` calls, each round times a batch sized from the warm-up to last
 * about `batchMs`. `fn` is awaited, which adds well under a microsecond to a call.
 */
export async function perCall(fn, { rounds = 7, warmup = 5, batchMs = 25 } = {}) {
  const batch = await batchFor(fn, warmup, batchMs);
  const samples = [];
  for (let round = 0; round < rounds; round++) samples.push(await timeBatch(fn, batch));
  return median(samples);
}
