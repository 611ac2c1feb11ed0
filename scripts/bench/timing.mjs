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

/**
 * Median milliseconds per call of `fn` for calls too short to time one by one:
 * after `warmup` calls, each round times a batch sized from the warm-up to last
 * about `batchMs`. `fn` is awaited, which adds well under a microsecond to a call.
 */
export async function perCall(fn, { rounds = 7, warmup = 5, batchMs = 25 } = {}) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < warmup; i++) await fn();
  const batch = Math.max(1, Math.round(batchMs / (msSince(started) / warmup)));
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    const began = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) await fn();
    samples.push(msSince(began) / batch);
  }
  return median(samples);
}
