import type { RunOwner, Store } from '../store/index.js';
import type { EngineDeps } from './engine-deps.js';

type OwnerDeps = Pick<EngineDeps, 'pid' | 'host' | 'isProcessAlive' | 'leaseClock' | 'leaseMs' | 'newOwnerToken'>;

/** A new owner for a run this process is about to work on: this process, a fresh token, a fresh lease. */
export function newRunOwner(deps: OwnerDeps): RunOwner {
  return {
    pid: deps.pid,
    host: deps.host,
    token: deps.newOwnerToken(),
    leaseExpiresAt: deps.leaseClock() + deps.leaseMs,
  };
}

/**
 * Whether a running run's owner is still at work. Its lease decides: a lapsed
 * lease means the owner is gone, whatever process has its PID now (a
 * recorder is often PID 1 in a container, and PIDs are reused). Within the
 * lease, an owner on this host whose process is gone died without ending its
 * run, and need not be waited for. A run recorded before leases has only its
 * PID to go by.
 */
export function isOwnerAlive(deps: OwnerDeps, owner: RunOwner): boolean {
  if (owner.leaseExpiresAt === null) return deps.isProcessAlive(owner.pid);
  if (deps.leaseClock() > owner.leaseExpiresAt) return false;
  return owner.host !== deps.host || deps.isProcessAlive(owner.pid);
}

/**
 * Renews a run's owner lease every third of its length until stopped, or
 * until the store says the run is no longer this owner's. The timer never
 * keeps the process alive on its own.
 *
 * @returns stops the renewals
 */
export function keepLease(
  store: Store,
  runId: string,
  owner: RunOwner,
  deps: Pick<EngineDeps, 'leaseClock' | 'leaseMs'>,
): () => void {
  const token = owner.token;
  if (token === null) return () => {};
  const timer = setInterval(
    () => {
      store.renewLease(runId, token, deps.leaseClock() + deps.leaseMs).then(
        (renewed) => {
          if (!renewed) clearInterval(timer);
        },
        () => {
          // A store that cannot be written now (busy, full) says so to the next step's commit; the lease
          // may lapse meanwhile, which is what a stalled owner should look like.
        },
      );
    },
    Math.max(1, Math.floor(deps.leaseMs / 3)),
  );
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}

/** {@link isOwnerAlive} over these deps, as the readers take it. */
export function ownerCheck(deps: OwnerDeps): (owner: RunOwner) => boolean {
  return (owner) => isOwnerAlive(deps, owner);
}
