import type { AgentBuild } from '../agent/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonValue } from '../json/index.js';
import { assertJsonValue } from '../json/index.js';
import type { AgentContext, BuildStateRecord } from '../machine/index.js';
import type { CheckpointMigration } from '../vocabulary/index.js';
import type { RestoredCheckpoint } from './checkpoint-state.js';

/** A restored checkpoint made fit for the build that continues it, and what that took. */
export interface FittedCheckpoint {
  readonly context: AgentContext;
  /** The migrations applied (machine and build state); null when the checkpoint was continued as stored. */
  readonly migration: CheckpointMigration | null;
}

/**
 * Checks a restored checkpoint against the build about to continue it (a
 * fork's, a resume's) and makes it that build's, before anything runs:
 * - the machine version was brought to this forkpoint's by the restore
 *   (`RestoredCheckpoint.machineMigrated`), and is recorded here;
 * - the build's state: a checkpoint kept under the same version continues
 *   as it is; under another version (or none), only through the build's
 *   `migrate`, whose result must be JSON and pass the build's `validate`;
 *   a build that keeps no state sets the checkpoint's aside, since nothing
 *   of it reads one.
 * A checkpoint the build cannot take is refused with
 * `CHECKPOINT_INCOMPATIBLE`, saying which versions and why (a migration's
 * own message included); nothing is half restored, since the caller writes
 * nothing until this returns.
 *
 * @param where names the checkpoint in messages: `checkpoint 3 of run 9b40c1d5`
 */
export function fitCheckpointToBuild(restored: RestoredCheckpoint, agent: AgentBuild, where: string): FittedCheckpoint {
  const kept = restored.context.buildState ?? null;
  const from = kept?.version ?? null;
  const to = agent.state?.version ?? null;
  const machine = restored.machineMigrated ?? null;
  if (from === to) return { context: restored.context, migration: machine === null ? null : { machine, state: null } };
  const state = { from, to, build: agent.build };
  const buildState = migratedState(kept, agent, where);
  return { context: { ...restored.context, buildState }, migration: { machine, state } };
}

function migratedState(kept: BuildStateRecord | null, agent: AgentBuild, where: string): BuildStateRecord | null {
  const spec = agent.state;
  const keptWords = kept === null ? 'keeps no build state' : `keeps build state version ${kept.version}`;
  // A build that keeps no state reads none: the checkpoint's is set aside, recorded, and continued without.
  if (spec === undefined) return null;
  const migrate = spec.migrate;
  if (migrate === undefined)
    throw incompatible(
      `${where} ${keptWords}; build ${agent.build} keeps version ${spec.version} and supplies no migration from it. Give the build a state migration (state.migrate), or continue with a build of the same state version`,
    );
  let value: unknown;
  try {
    value = migrate(structuredClone({ version: kept?.version ?? null, state: kept?.value ?? null }));
  } catch (error) {
    throw incompatible(
      `${where} ${keptWords}, and build ${agent.build}'s migration to version ${spec.version} failed: ${error instanceof Error ? error.message : String(error)}`,
      error,
    );
  }
  const problems = problemsOf(value, spec.validate);
  if (problems.length > 0)
    throw incompatible(
      `${where} ${keptWords}, and build ${agent.build}'s migration to version ${spec.version} returned a state it does not accept: ${problems.join('; ')}`,
    );
  return { version: spec.version, value: value as JsonValue };
}

function problemsOf(value: unknown, validate: ((state: JsonValue) => readonly string[]) | undefined): string[] {
  try {
    assertJsonValue(value, 'the migrated state', 'CHECKPOINT_INCOMPATIBLE');
  } catch (error) {
    return [(error as Error).message];
  }
  if (validate === undefined) return [];
  try {
    return [...validate(value)];
  } catch (error) {
    return [`its validate threw: ${error instanceof Error ? error.message : String(error)}`];
  }
}

function incompatible(message: string, cause?: unknown): ForkpointError {
  return new ForkpointError('CHECKPOINT_INCOMPATIBLE', message, cause === undefined ? {} : { cause });
}
