import type { RunRecord } from './run-record.js';
import type { UsageTotal } from '../pricing/index.js';
import type { FailureSignature } from '../signature/index.js';
import type { RunMode, RunStatus } from '../vocabulary/index.js';

/**
 * What `similar` and `classes` read of one ended run: who made it, when, how
 * it ended, its signature and its tokens, and no payload, so that a period of
 * thousands of runs is read without opening a sealed column.
 */
export interface SignedRun {
  readonly runId: string;
  readonly mode: RunMode;
  readonly agentName: string;
  readonly build: string;
  readonly codeHash: string;
  readonly scenario: string | null;
  readonly createdAt: string;
  readonly status: Exclude<RunStatus, 'running' | 'interrupted'>;
  /** The run a replay or re-execution was made from; null for others. */
  readonly sourceRunId: string | null;
  /** The run a fork branched from; null for others. */
  readonly parentRunId: string | null;
  readonly signature: FailureSignature;
  readonly usage: readonly UsageTotal[] | null;
}

/** Which signed runs to read: those created in a period, or those of one signature. */
export interface SignedRunQuery {
  /** Only runs created at or after this ISO timestamp. */
  readonly since?: string;
  /** Only runs created strictly before this ISO timestamp. */
  readonly until?: string;
  /** Only runs whose signature has this digest. */
  readonly digest?: string;
}

/** The {@link SignedRun} of a run record, or undefined while it runs or when it has no signature. */
export function signedRunOf(record: RunRecord): SignedRun | undefined {
  if (record.signature === null || record.status === 'running' || record.status === 'interrupted') return undefined;
  return {
    runId: record.runId,
    mode: record.mode,
    agentName: record.agentName,
    build: record.build,
    codeHash: record.codeHash,
    scenario: record.scenario,
    createdAt: record.createdAt,
    status: record.status,
    sourceRunId: record.sourceRunId,
    parentRunId: record.parent?.runId ?? null,
    signature: record.signature,
    usage: record.usage,
  };
}

/** Whether a run created at `createdAt` with signature `digest` matches `query`. */
export function matchesSignedQuery(query: SignedRunQuery, createdAt: string, digest: string): boolean {
  if (query.since !== undefined && createdAt < query.since) return false;
  if (query.until !== undefined && createdAt >= query.until) return false;
  return query.digest === undefined || digest === query.digest;
}
