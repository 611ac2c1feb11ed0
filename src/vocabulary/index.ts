export type { RunMode } from './run-mode.js';
export type { RunStatus } from './run-status.js';
export type { Provenance } from './provenance.js';
export type { Tier } from './tier.js';
