import type { Remedy } from '../../src/errors/index.js';

/** A remedy of every kind, and the variants that change their words. */
export const EVERY_REMEDY: readonly Remedy[] = [
  { kind: 'choose-run-id' },
  { kind: 'open-another-store' },
  { kind: 'open-another-store', restore: true, moveAside: true },
  { kind: 'choose-schema' },
  { kind: 'choose-schema', restore: true },
  { kind: 'replay-structural' },
  { kind: 'replay-structural', runId: '9b40c1d5' },
  { kind: 'structural-cassette', runId: '9b40c1d5' },
  { kind: 'export-structural', runId: '9b40c1d5' },
  { kind: 'fork-instead', runId: '9b40c1d5' },
  { kind: 'use-agent', agent: 'claims-triage' },
  { kind: 'record-synthetic' },
  { kind: 'open-sealing-store' },
  { kind: 'override-for-step', step: 'model' },
  { kind: 'override-for-step', step: 'tool' },
  { kind: 'run-verification', runId: '9b40c1d5', candidate: 'patched', baseline: 'baseline', mode: 'replay' },
  {
    kind: 'run-verification',
    runId: '9b40c1d5',
    candidate: 'patched',
    baseline: 'baseline',
    mode: 'reexecution',
    at: '2026-03-09',
  },
  { kind: 'run-divergence-report', runIds: null, at: '2026-03-09', build: null },
  { kind: 'run-divergence-report', runIds: ['9b40c1d5', '1f2e3d4c'], at: '2026-03-09', build: 'patched' },
];
