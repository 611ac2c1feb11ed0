import { randomInt, randomUUID } from 'node:crypto';
import type { PriceLookup, PriceTable } from '../pricing/index.js';
import { SHIPPED_PRICES } from '../pricing/index.js';
import type { Store } from '../store/index.js';
import { hostIdentity } from './host-identity.js';

/**
 * What the engine needs from the outside world, injected so that tests are
 * deterministic: a store, a clock, ids and randomness, and what it takes to
 * tell a live run owner from a dead one.
 */
export interface EngineDeps {
  readonly store: Store;
  /** Stamps runs and decides what has expired (the CLI's `--now` fixes it). */
  readonly clock: () => Date;
  /**
   * Mints a run id: 12 lowercase hex characters (48 random bits). A minted id
   * that is taken already is replaced by another; see `withFreshRunId`.
   */
  readonly newRunId: () => string;
  /** A uniform number in [0, 1): seeds, prompt environments. */
  readonly random: () => number;
  /** This process's id, stored as the owner of the runs it works on. */
  readonly pid: number;
  /** The host and PID namespace `pid` belongs to (see `hostIdentity`). */
  readonly host: string;
  /** Whether a process of this host still runs. */
  readonly isProcessAlive: (pid: number) => boolean;
  /**
   * Milliseconds since the epoch, by which owner leases are kept: the real
   * time even when `clock` is fixed, since a lease says whether a process is
   * alive now.
   */
  readonly leaseClock: () => number;
  /** How long an owner's lease holds without renewal; the owner renews it every third of that. */
  readonly leaseMs: number;
  /** Mints the token that names a run's owner in its writes. */
  readonly newOwnerToken: () => string;
  /** The price table each run is priced by, from its scenario (see `RunCost`). */
  readonly prices: PriceLookup;
}

/** Options of `createEngine`: a store, and optionally the rest of {@link EngineDeps}. */
export type EngineOptions = Pick<EngineDeps, 'store'> &
  Partial<Omit<EngineDeps, 'store' | 'prices'>> & {
    /**
     * What runs are priced by: a table (default `SHIPPED_PRICES`, forkpoint's
     * dated list prices; `mergePriceTables(SHIPPED_PRICES, yours)` puts yours
     * over them), or a function of a run's scenario that gives its table (a
     * scenario may price the simulated models only it has). Prices apply when a
     * run is read, so a new table prices old runs too.
     */
    readonly prices?: PriceTable | PriceLookup;
  };

/** An owner lease lasts 30 s: long enough for a slow model call between renewals, short enough to resume soon. */
export const DEFAULT_LEASE_MS = 30_000;

/** Fills in the real clock, crypto-random ids and randomness, and process liveness. */
export function resolveEngineDeps(options: EngineOptions): EngineDeps {
  return {
    store: options.store,
    clock: options.clock ?? (() => new Date()),
    newRunId: options.newRunId ?? mintRunId,
    random: options.random ?? (() => randomInt(0, 2 ** 47) / 2 ** 47),
    pid: options.pid ?? process.pid,
    host: options.host ?? hostIdentity(),
    isProcessAlive: options.isProcessAlive ?? processIsAlive,
    leaseClock: options.leaseClock ?? Date.now,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    newOwnerToken: options.newOwnerToken ?? randomUUID,
    prices: lookupOf(options.prices ?? SHIPPED_PRICES),
  };
}

function lookupOf(prices: PriceTable | PriceLookup): PriceLookup {
  return typeof prices === 'function' ? prices : () => prices;
}

/**
 * 48 random bits: at 100k runs the chance that a new id is taken is one in
 * 2.8 billion, and that any two of a million runs share one is under 0.2%,
 * which the retry on `RUN_EXISTS` absorbs. 32 bits (8 hex, the ids of older
 * runs) collided in practice: a 100k-run database has even odds of a pair.
 * Twelve characters still read and type like a short commit hash.
 */
function mintRunId(): string {
  // The first 12 hex digits of a v4 UUID are all random (its version digit is the 13th); randomUUID
  // draws from a cached pool of entropy, where randomBytes makes a call into the system for every id.
  const uuid = randomUUID();
  return uuid.slice(0, 8) + uuid.slice(9, 13);
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
