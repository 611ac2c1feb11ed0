import type { World } from '../world/index.js';
import { ForkpointError } from '../errors/index.js';

// 12 hex characters for the runs forkpoint mints; 8 for those it minted before, which --run-id may still choose.
const RUN_ID = /^[0-9a-f]{8}(?:[0-9a-f]{4})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Checks a run id: 12 lowercase hex characters, or 8 (the ids of older runs, and a shorter `--run-id`). */
export function assertRunId(runId: string): void {
  if (!RUN_ID.test(runId)) {
    throw new ForkpointError(
      'USAGE',
      `run id "${runId}" must be 12 lowercase hex characters (or 8, as older runs have), like 9b40c1d5e7a2 or 9b40c1d5`,
    );
  }
}

/** Checks a world date: a real calendar day written `YYYY-MM-DD`. */
export function assertWorldDate(at: string): void {
  const match = DATE.exec(at);
  const [year, month, day] = match === null ? [NaN, NaN, NaN] : [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    match === null ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    throw new ForkpointError('USAGE', `date "${at}" is not a calendar day written YYYY-MM-DD, like 2026-03-04`);
  }
}

/** Checks a seed: an integer from 0 to 2^32-1. */
export function assertSeed(seed: number): void {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new ForkpointError('USAGE', `seed ${seed} must be an integer from 0 to 4294967295`);
  }
}

/** A new run's id, what its world says of itself, and how to mint another id if that one turns out to be taken. */
export interface RunIdentity {
  readonly runId: string;
  readonly worldAt: string | null;
  readonly seed: number | null;
  /** Mints a replacement id; null for an id the caller chose, which is never replaced. */
  readonly mintRunId: (() => string) | null;
}

/**
 * The identity of a new run that meets a live world: the given id, checked,
 * or a fresh one from the engine's injected ids; and the world's date and
 * seed as the world states them (checked), to be stored with the run.
 */
export function newRunIdentity(
  deps: { readonly newRunId: () => string },
  options: { readonly runId?: string; readonly world: World },
): RunIdentity {
  const runId = options.runId ?? deps.newRunId();
  assertRunId(runId);
  const { worldAt, seed } = options.world;
  if (worldAt !== undefined) assertWorldDate(worldAt);
  if (seed !== undefined) assertSeed(seed);
  return {
    runId,
    worldAt: worldAt ?? null,
    seed: seed ?? null,
    mintRunId: options.runId === undefined ? deps.newRunId : null,
  };
}
