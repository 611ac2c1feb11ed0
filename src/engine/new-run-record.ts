import type { AgentBuild } from '../agent/index.js';
import { CANONICAL_FORM } from '../cassette/index.js';
import { MACHINE_VERSION } from '../machine/index.js';
import type { NewRunRecord } from '../store/index.js';
import type { EngineDeps } from './engine-deps.js';

/** What differs between the runs of different modes; the rest is the same for all. */
export type RunFields = Omit<NewRunRecord, 'agentName' | 'build' | 'codeHash' | 'canonicalForm' | 'machineVersion' | 'createdAt' | 'ownerPid' | 'parent' | 'sourceRunId' | 'sourceCassette'> &
  Partial<Pick<NewRunRecord, 'parent' | 'sourceRunId' | 'sourceCassette'>>;

/** A run record for `agent`, stamped with the canonical form, machine version, clock and owning process. */
export function newRunRecord(deps: Pick<EngineDeps, 'clock' | 'pid'>, agent: AgentBuild, fields: RunFields): NewRunRecord {
  return {
    parent: null,
    sourceRunId: null,
    sourceCassette: null,
    ...fields,
    agentName: agent.name,
    build: agent.build,
    codeHash: agent.codeHash,
    canonicalForm: CANONICAL_FORM,
    machineVersion: MACHINE_VERSION,
    createdAt: deps.clock().toISOString(),
    ownerPid: deps.pid,
  };
}
