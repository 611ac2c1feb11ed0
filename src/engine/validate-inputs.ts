import { ForkpointError } from '../errors/index.js';

const RUN_ID = /^[0-9a-f]{8}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Checks a run id: 8 lowercase hex characters. */
export function assertRunId(runId: string): void {
  if (!RUN_ID.test(runId)) {
    throw new ForkpointError('USAGE', `run id "${runId}" must be 8 lowercase hex characters, like 9b40c1d5`);
  }
}

/** Checks a world date: a real calendar day written `YYYY-MM-DD`. */
export function assertWorldDate(at: string): void {
  const match = DATE.exec(at);
  const [year, month, day] = match === null ? [NaN, NaN, NaN] : [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (match === null || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new ForkpointError('USAGE', `date "${at}" is not a calendar day written YYYY-MM-DD, like 2026-03-04`);
  }
}

/** Checks a seed: an integer from 0 to 2^32-1. */
export function assertSeed(seed: number): void {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new ForkpointError('USAGE', `seed ${seed} must be an integer from 0 to 4294967295`);
  }
}

/**
 * The id and seed of a new run that observes the live world: the given ones,
 * checked, or fresh ones from the engine's injected ids and randomness.
 */
export function newRunIdentity(
  deps: { readonly newRunId: () => string; readonly random: () => number },
  options: { readonly runId?: string; readonly at?: string; readonly seed?: number },
): { runId: string; seed: number } {
  const runId = options.runId ?? deps.newRunId();
  assertRunId(runId);
  if (options.at !== undefined) assertWorldDate(options.at);
  if (options.seed !== undefined) assertSeed(options.seed);
  return { runId, seed: options.seed ?? Math.floor(deps.random() * 0x100000000) };
}
