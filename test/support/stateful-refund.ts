import type { AgentBuild, BuildStateSpec } from '../../src/agent/index.js';
import type { JsonValue } from '../../src/json/index.js';
import { isJsonArray, isJsonObject } from '../../src/json/index.js';
import { refundBuild } from './refund-agent.js';

// The tools a run has called so far, in order, under a field name of the build's choosing.
const lookupsIn = (state: JsonValue, field: string): readonly JsonValue[] => {
  const list = isJsonObject(state) ? state[field] : undefined;
  return isJsonArray(list) ? list : [];
};

/** Version 1 of the ledger a refund desk keeps: the tools called so far, as `looked_up`. */
export const LEDGER_V1: BuildStateSpec = {
  version: 1,
  initial: () => ({ looked_up: [] }),
  update: (state, observation) =>
    observation.kind === 'tool' ? { looked_up: [...lookupsIn(state, 'looked_up'), observation.call.name] } : state,
};

/** Version 2 renamed the field to `calls`; its migration renames it back from version 1. */
export const LEDGER_V2: BuildStateSpec = {
  version: 2,
  initial: () => ({ calls: [] }),
  update: (state, observation) =>
    observation.kind === 'tool' ? { calls: [...lookupsIn(state, 'calls'), observation.call.name] } : state,
  migrate: ({ version, state }) => {
    if (version !== 1 || !isJsonObject(state) || !Array.isArray(state.looked_up))
      throw new Error(`no way to the ledger from version ${String(version)}`);
    return { calls: state.looked_up };
  },
  validate: (state) => (isJsonObject(state) && Array.isArray(state.calls) ? [] : ['a ledger holds a list of calls']),
};

function withoutMigration({ migrate: _migrate, ...spec }: BuildStateSpec): BuildStateSpec {
  return spec;
}

/** The refund desk keeping a ledger of the given version (`baseline` prompt and tools), as build `name`. */
export const ledgerBuild = (name: string, state: BuildStateSpec | undefined): AgentBuild =>
  refundBuild('baseline', { build: name, ...(state === undefined ? {} : { state }) });

/** The builds the tests fork between: the same agent, its state kept under versions 1 and 2, or not at all. */
export const LEDGER_BUILDS = {
  v1: ledgerBuild('ledger-v1', LEDGER_V1),
  v2: ledgerBuild('ledger-v2', LEDGER_V2),
  // Version 2 without its migration: a checkpoint of version 1 is refused.
  v2Unmigrated: ledgerBuild('ledger-v2-unmigrated', withoutMigration(LEDGER_V2)),
  // A migration that throws, and one that hands back what its version does not accept.
  v2Throws: ledgerBuild('ledger-v2-throws', {
    ...LEDGER_V2,
    migrate: () => {
      throw new Error('the ledger of 2025 cannot be read');
    },
  }),
  v2Invalid: ledgerBuild('ledger-v2-invalid', { ...LEDGER_V2, migrate: () => ({ calls: 'all of them' }) }),
  stateless: ledgerBuild('ledger-none', undefined),
} as const;
