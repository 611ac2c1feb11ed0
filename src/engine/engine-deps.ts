import { randomInt, randomUUID } from 'node:crypto';
import type { Store } from '../store/index.js';

/**
 * What the engine needs from the outside world, injected so that tests are
 * deterministic: a store, a clock, ids and randomness.
 */
export interface EngineDeps {
  readonly store: Store;
  readonly clock: () => Date;
  /** Mints a run id: 8 lowercase hex characters. */
  readonly newRunId: () => string;
  /** A uniform number in [0, 1): seeds, prompt environments. */
  readonly random: () => number;
  /** This process's id, stored as the owner of the runs it works on. */
  readonly pid: number;
  /** Whether a process still runs: a `running` run whose owner is gone was interrupted. */
  readonly isProcessAlive: (pid: number) => boolean;
}

/** Options of `createEngine`: a store, and optionally the rest of {@link EngineDeps}. */
export type EngineOptions = Pick<EngineDeps, 'store'> & Partial<Omit<EngineDeps, 'store'>>;

/** Fills in the real clock, crypto-random ids and randomness, and process liveness. */
export function resolveEngineDeps(options: EngineOptions): EngineDeps {
  return {
    store: options.store,
    clock: options.clock ?? (() => new Date()),
    // The first 8 hex digits of a v4 UUID are all random; randomUUID draws from a cached pool of
    // entropy, where randomBytes makes a call into the system for every id.
    newRunId: options.newRunId ?? (() => randomUUID().slice(0, 8)),
    random: options.random ?? (() => randomInt(0, 2 ** 47) / 2 ** 47),
    pid: options.pid ?? process.pid,
    isProcessAlive: options.isProcessAlive ?? processIsAlive,
  };
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
