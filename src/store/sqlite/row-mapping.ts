import type { JsonObject, JsonValue } from '../../json/index.js';
import { canonicalJson, isJsonArray, isJsonObject } from '../../json/index.js';
import { RUN_MODES, RUN_STATUSES, isCheckpointMigration, isFinding } from '../../vocabulary/index.js';
import { decodingStored } from '../../payload/index.js';
import type { Tier } from '../../vocabulary/index.js';
import type { SideEffectPolicy } from '../../firewall/index.js';
import type { PurgeReason, RunErrorRecord, RunFinish, RunOwner, RunRecord, RunResume } from '../run-record.js';
import type { RunMode } from '../../vocabulary/index.js';
import type { CheckpointMigration, Finding, RunStatus } from '../../vocabulary/index.js';
import type { UsageTotal } from '../../pricing/index.js';
import { isUsageTotals } from '../../pricing/index.js';
import type { FailureSignature } from '../../signature/index.js';
import { isFailureSignature } from '../../signature/index.js';
import type { PayloadSealer } from '../sealing/payload-sealer.js';
import type { ColumnSeal } from '../sealing/sealed-columns.js';
import { PLAIN, openedRunRow, sealed, sealedError } from '../sealing/sealed-columns.js';

/** A `runs` row as better-sqlite3 returns it. */
export interface RunRow {
  run_id: string;
  mode: string;
  agent_name: string;
  build: string;
  code_hash: string;
  scenario: string | null;
  input: string;
  world_at: string | null;
  seed: number | null;
  status: string;
  outcome: string | null;
  error: string | null;
  parent_run_id: string | null;
  parent_step: number | null;
  override: string | null;
  source_run_id: string | null;
  source_cassette: string | null;
  findings: string | null;
  canonical_form: string;
  machine_version: number;
  created_at: string;
  finished_at: string | null;
  step_count: number;
  owner_pid: number | null;
  owner_host: string | null;
  owner_token: string | null;
  lease_expires_at: number | null;
  side_effects: string | null;
  resumes: string | null;
  override_changes: string | null;
  tier: string;
  expires_at: string | null;
  structural_expires_at: string | null;
  purged_at: string | null;
  purge_reason: string | null;
  usage: string | null;
  signature: string | null;
  signature_digest: string | null;
  checkpoint_migration: string | null;
}

// JSON columns hold canonical text: it escapes lone surrogates, which a raw TEXT bind would mangle.
const toText = (value: JsonValue | null): string | null => (value === null ? null : canonicalJson(value));
// What a column parses to is checked by checkRun, field by field.
const fromText = (text: string | null): JsonValue | null => (text === null ? null : (JSON.parse(text) as JsonValue));

/**
 * Maps a `runs` row to a record, its sealed payload columns opened by
 * `sealer`; a column that does not hold the JSON forkpoint wrote there (or a
 * sealed one that does not open) is `STORE_CORRUPT`, naming the run.
 */
export function runFromRow(row: RunRow, sealer: PayloadSealer): RunRecord {
  return decodingStored(`run ${row.run_id}'s summary`, () => mapRun(openedRunRow(row, sealer)));
}

const MODES: ReadonlySet<string> = new Set<RunMode>(RUN_MODES);
// `interrupted` is a reader's word for a running run whose owner is gone: no row stores it.
const STATUSES: ReadonlySet<string> = new Set<RunStatus>(RUN_STATUSES.filter((status) => status !== 'interrupted'));
const TIERS: ReadonlySet<string> = new Set<Tier>(['full', 'structural', 'synthetic']);

// What every reader relies on, checked once here: a row edited outside forkpoint fails as STORE_CORRUPT, not
// as a TypeError in whatever code reads the field first.
function checkRun(run: RunRecord): RunRecord {
  const problem = !MODES.has(run.mode)
    ? `mode ${JSON.stringify(run.mode)}`
    : !STATUSES.has(run.status)
      ? `status ${JSON.stringify(run.status)}`
      : !TIERS.has(run.tier)
        ? `tier ${JSON.stringify(run.tier)}`
        : !isJsonObject(run.input)
          ? 'an input that is not an object'
          : run.outcome !== null && !isJsonObject(run.outcome)
            ? 'an outcome that is not an object'
            : run.error !== null &&
                !(
                  isJsonObject(run.error as unknown as JsonValue) &&
                  typeof run.error.code === 'string' &&
                  typeof run.error.message === 'string'
                )
              ? 'an error without a code and a message'
              : !isJsonArray(run.findings) || !run.findings.every((finding) => isFinding(finding))
                ? 'findings that are not a list of findings'
                : !Array.isArray(run.resumes)
                  ? 'resumes that are not a list'
                  : run.usage !== null && !isUsageTotals(run.usage)
                    ? 'usage that is not a list of token totals'
                    : run.signature !== null && !isFailureSignature(run.signature)
                      ? 'a signature that is not a failure signature'
                      : run.parent?.migration !== undefined && !isCheckpointMigration(run.parent.migration)
                        ? 'a checkpoint migration that is not one'
                        : undefined;
  if (problem !== undefined) throw new SyntaxError(`it holds ${problem}`);
  return run;
}

function mapRun(row: RunRow): RunRecord {
  return checkRun({
    runId: row.run_id,
    mode: row.mode as RunMode,
    agentName: row.agent_name,
    build: row.build,
    codeHash: row.code_hash,
    scenario: row.scenario,
    input: JSON.parse(row.input) as JsonObject,
    worldAt: row.world_at,
    seed: row.seed,
    status: row.status as RunStatus,
    outcome: fromText(row.outcome) as JsonObject | null,
    error: fromText(row.error) as RunErrorRecord | null,
    parent:
      row.parent_run_id === null
        ? null
        : {
            runId: row.parent_run_id,
            atStep: row.parent_step ?? 0,
            override: fromText(row.override),
            changes: fromText(row.override_changes) as JsonObject[] | null,
            ...(row.checkpoint_migration === null
              ? {}
              : { migration: fromText(row.checkpoint_migration) as unknown as CheckpointMigration }),
          },
    sourceRunId: row.source_run_id,
    sourceCassette: row.source_cassette,
    findings: (fromText(row.findings) as Finding[] | null) ?? [],
    canonicalForm: row.canonical_form,
    machineVersion: row.machine_version,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    stepCount: row.step_count,
    owner: ownerFromRow(row),
    sideEffects: fromText(row.side_effects) as SideEffectPolicy | null,
    resumes: (fromText(row.resumes) as RunResume[] | null) ?? [],
    tier: row.tier as Tier,
    expiresAt: row.expires_at,
    structuralExpiresAt: row.structural_expires_at,
    purge:
      row.purged_at === null ? null : { at: row.purged_at, reason: (row.purge_reason ?? 'expired') as PurgeReason },
    usage: fromText(row.usage) as UsageTotal[] | null,
    signature: fromText(row.signature) as FailureSignature | null,
  });
}

/**
 * The bind parameters of a run insert, its payload columns sealed by `seal`:
 * a new run (see `startedRunRecord`), or a copied one as it is.
 */
export function runToParams(run: RunRecord, seal: ColumnSeal = PLAIN): Record<string, string | number | null> {
  return {
    run_id: run.runId,
    mode: run.mode,
    agent_name: run.agentName,
    build: run.build,
    code_hash: run.codeHash,
    scenario: run.scenario,
    input: sealed(seal, toText(run.input)),
    world_at: run.worldAt,
    seed: run.seed,
    status: run.status,
    outcome: toText(run.outcome),
    error: sealedError(seal, errorToText(run.error)),
    parent_run_id: run.parent?.runId ?? null,
    parent_step: run.parent?.atStep ?? null,
    override: run.parent === null ? null : sealed(seal, toText(run.parent.override)),
    source_run_id: run.sourceRunId,
    source_cassette: run.sourceCassette,
    findings: run.findings.length === 0 ? null : seal(canonicalJson(run.findings)),
    canonical_form: run.canonicalForm,
    machine_version: run.machineVersion,
    created_at: run.createdAt,
    finished_at: run.finishedAt,
    step_count: run.stepCount,
    owner_pid: run.owner?.pid ?? null,
    owner_host: run.owner?.host ?? null,
    owner_token: run.owner?.token ?? null,
    lease_expires_at: run.owner?.leaseExpiresAt ?? null,
    side_effects: run.sideEffects === null ? null : canonicalJson(run.sideEffects),
    resumes: run.resumes.length === 0 ? null : canonicalJson(run.resumes as unknown as JsonValue),
    override_changes: run.parent?.changes == null ? null : seal(canonicalJson(run.parent.changes)),
    tier: run.tier,
    expires_at: run.expiresAt,
    structural_expires_at: run.structuralExpiresAt,
    purged_at: run.purge?.at ?? null,
    purge_reason: run.purge?.reason ?? null,
    usage: usageToText(run.usage ?? undefined),
    ...signatureToParams(run.signature ?? undefined),
    checkpoint_migration: run.parent?.migration === undefined ? null : canonicalJson(run.parent.migration),
  };
}

/** The values of a run's ending, in the order the finishing statements bind them, its error and findings sealed by `seal`. */
export function finishToValues(
  finish: RunFinish,
  seal: ColumnSeal = PLAIN,
): [string, string | null, string | null, string | null, string, string | null, string | null, string | null] {
  const { signature, signature_digest } = signatureToParams(finish.signature);
  return [
    finish.status,
    toText(finish.outcome),
    sealedError(seal, errorToText(finish.error)),
    sealed(seal, findingsToText(finish.findings)),
    finish.finishedAt,
    usageToText(finish.usage),
    signature,
    signature_digest,
  ];
}

/** A run's signature for its columns: the whole of it, and its digest (indexed, for the runs of one class). */
export function signatureToParams(signature: FailureSignature | undefined): {
  signature: string | null;
  signature_digest: string | null;
} {
  return signature === undefined
    ? { signature: null, signature_digest: null }
    : { signature: canonicalJson(signature), signature_digest: signature.digest };
}

/** Serialises a run's token totals for their column (null when they are not known). */
export function usageToText(usage: readonly UsageTotal[] | undefined): string | null {
  return usage === undefined ? null : canonicalJson(usage);
}

/** Serialises one resume for the run's list of them. */
export const resumeToText = (resume: RunResume): string => canonicalJson(resume as unknown as JsonValue);

// A run that is not running has no owner, whatever its columns still say.
function ownerFromRow(row: RunRow): RunOwner | null {
  if (row.status !== 'running' || row.owner_pid === null) return null;
  return { pid: row.owner_pid, host: row.owner_host, token: row.owner_token, leaseExpiresAt: row.lease_expires_at };
}

/** Serialises findings for their column (null when there are none). */
export function findingsToText(findings: readonly Finding[] | undefined): string | null {
  return findings === undefined || findings.length === 0 ? null : canonicalJson(findings);
}

/** Serialises a run error for its column. */
export function errorToText(error: RunErrorRecord | null): string | null {
  return error === null ? null : canonicalJson({ code: error.code, message: error.message, step: error.step });
}
