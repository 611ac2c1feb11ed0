import type { AgentBuild } from '../agent/index.js';
import type { Tier } from '../vocabulary/index.js';
import { CANONICAL_FORM } from '../cassette/index.js';
import { MACHINE_VERSION } from '../machine/index.js';
import type { NewRunRecord } from '../store/index.js';
import { earlierExpiry, fullExpiryOf, structuralExpiryOf } from '../tiers/index.js';
import type { EngineDeps } from './engine-deps.js';

/** What differs between the runs of different modes; the rest is the same for all. */
export type RunFields = Omit<
  NewRunRecord,
  | 'agentName'
  | 'build'
  | 'codeHash'
  | 'canonicalForm'
  | 'machineVersion'
  | 'createdAt'
  | 'owner'
  | 'sideEffects'
  | 'parent'
  | 'sourceRunId'
  | 'sourceCassette'
  | 'tier'
  | 'expiresAt'
  | 'structuralExpiresAt'
> &
  Partial<Pick<NewRunRecord, 'parent' | 'sourceRunId' | 'sourceCassette' | 'owner' | 'sideEffects'>> & {
    /** The machine that drives the run: forkpoint's (the default), or none (`WRAPPED_LOOP_VERSION`). */
    readonly machineVersion?: number;
    /** What the run's rows will hold; default `full`. */
    readonly tier?: Tier;
    /**
     * The expiry of what the run copies (a fork's parent, a replayed cassette):
     * a copy never outlives its source. Undefined or null: no bound.
     */
    readonly expiresNoLaterThan?: string | null;
  };

/**
 * A run record for `agent`, stamped with the canonical form, machine version,
 * clock and retention (the store's periods). A run that streams its steps gives its `owner`; one
 * that goes past a recording gives the `sideEffects` policy it runs under.
 */
export async function newRunRecord(
  deps: Pick<EngineDeps, 'clock' | 'store'>,
  agent: Pick<AgentBuild, 'name' | 'build' | 'codeHash'>,
  fields: RunFields,
): Promise<NewRunRecord> {
  const { tier = 'full', expiresNoLaterThan = null, machineVersion: _machineVersion, ...rest } = fields;
  const createdAt = deps.clock();
  // The store's own periods: retention is the team's policy, read when the run is made.
  const { fullRetentionHours, structuralRetentionDays } = await deps.store.settings();
  const structuralExpiry = structuralExpiryOf(createdAt, structuralRetentionDays);
  const ownExpiry =
    tier === 'synthetic'
      ? null
      : tier === 'structural'
        ? structuralExpiry
        : fullExpiryOf(createdAt, fullRetentionHours);
  return {
    parent: null,
    sourceRunId: null,
    sourceCassette: null,
    owner: null,
    sideEffects: null,
    ...rest,
    agentName: agent.name,
    build: agent.build,
    codeHash: agent.codeHash,
    canonicalForm: CANONICAL_FORM,
    machineVersion: fields.machineVersion ?? MACHINE_VERSION,
    createdAt: createdAt.toISOString(),
    tier,
    expiresAt: tier === 'synthetic' ? null : earlierExpiry(ownExpiry, expiresNoLaterThan),
    structuralExpiresAt: tier === 'synthetic' ? null : structuralExpiry,
  };
}
