import type { NewRunRecord, StepRecord } from '../store/index.js';

/** The owner token of {@link sampleRun}'s owner. */
export const SAMPLE_OWNER_TOKEN = 'owner-token-1';

/** A run record for the suite; fields can be overridden. */
export function sampleRun(overrides: Partial<NewRunRecord> = {}): NewRunRecord {
  return {
    runId: '0000abcd',
    mode: 'record',
    agentName: 'agent',
    build: 'baseline',
    codeHash: '0123456789abcdef',
    scenario: 'scenarios/sample',
    input: { claimId: 'CLM-1', note: 'half an emoji: \ud83d' },
    worldAt: '2026-03-04',
    seed: 42,
    parent: null,
    sourceRunId: null,
    sourceCassette: null,
    canonicalForm: 'forkpoint-canonical/1',
    machineVersion: 1,
    createdAt: '2026-03-04T10:00:00.000Z',
    owner: { pid: 4242, host: 'test-host', token: SAMPLE_OWNER_TOKEN, leaseExpiresAt: 1_900_000_000_000 },
    sideEffects: null,
    tier: 'full',
    expiresAt: '2026-03-07T10:00:00.000Z',
    structuralExpiresAt: '2026-06-02T10:00:00.000Z',
    ...overrides,
  };
}

/** A trajectory row for the suite; fields can be overridden. */
export function sampleStep(step: number, overrides: Partial<StepRecord> = {}): StepRecord {
  return {
    step,
    kind: step === 0 ? null : step % 2 === 1 ? 'model' : 'tool',
    index: step === 0 ? null : Math.floor((step - 1) / 2),
    requestHash: step === 0 ? null : String(step).padStart(16, '0'),
    request: step === 0 ? null : `{"step":${step}}`,
    messageCount: step % 2 === 1 ? step : null,
    response: step === 0 ? null : `{"$blob":"blob-${step}"}`,
    isError: false,
    provenance: step === 0 ? null : 'live',
    message: step % 3 === 0 ? `{"role":"user","n":${step}}` : null,
    messageDigest: step % 3 === 0 ? `digest-${step}` : null,
    checkpoint: `{"step":${step}}`,
    checkpointFull: step % 4 === 0,
    messageSegment: null,
    sideEffect: false,
    ...overrides,
  };
}
