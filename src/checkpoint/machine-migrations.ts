import { ForkpointError } from '../errors/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import { MACHINE_VERSION } from '../machine/index.js';

/**
 * A checkpoint as a migration sees it: the machine's state name and its
 * context skeleton (the conversation stands as its length), plain JSON as
 * the version that wrote it had them.
 */
export type StoredMachineState = { readonly value: JsonValue; readonly context: JsonObject };

/** One of forkpoint's own migrations: a checkpoint of machine version `from` made one of `from + 1`. */
export type MachineMigration = (state: StoredMachineState) => StoredMachineState;

/**
 * forkpoint's migrations of the checkpoints already stored, one per bump of
 * `MACHINE_VERSION`: the one at key `v` takes a checkpoint of version `v` to
 * `v + 1`. A bump ships its migration, so that no stored checkpoint becomes
 * unreadable; a checkpoint newer than this forkpoint, or older than the
 * oldest migration, is refused.
 */
export const MACHINE_MIGRATIONS: Readonly<Record<number, MachineMigration>> = Object.freeze({
  // Version 2 added the `awaitingApproval` state and the context's `approved` call and `buildState`, all
  // optional: a version 1 checkpoint holds none of them and is a version 2 one as it is.
  1: (state: StoredMachineState) => state,
});

/** What a restore did to bring a checkpoint to this forkpoint's machine: from which version to which. */
export type MachineMigrated = { readonly from: number; readonly to: number };

/**
 * Brings a stored checkpoint of machine version `from` to `to` through the
 * migrations between them, in order. Refuses, by name and before anything is
 * restored, a version it has no way from (`CHECKPOINT_INCOMPATIBLE`), and a
 * migration that throws. The result still has to pass the checkpoint's
 * checks: a migration cannot hand back a half-made state.
 */
export function migrateMachineState(
  state: StoredMachineState,
  from: number,
  where: string,
  to: number = MACHINE_VERSION,
  migrations: Readonly<Record<number, MachineMigration>> = MACHINE_MIGRATIONS,
): StoredMachineState {
  if (from > to)
    throw incompatible(
      `${where} was written by machine version ${from}, newer than this forkpoint's ${to}: upgrade forkpoint to continue it, or replay the run from its cassette`,
    );
  let migrated = state;
  for (let version = from; version < to; version += 1) {
    const migration = Object.hasOwn(migrations, version) ? migrations[version] : undefined;
    if (migration === undefined)
      throw incompatible(
        `${where} was written by machine version ${from}, and this forkpoint (version ${to}) has no migration from version ${version}. Replay the run from its cassette instead`,
      );
    try {
      migrated = migration(migrated);
    } catch (error) {
      throw incompatible(
        `${where}: the migration of machine version ${version} to ${version + 1} failed: ${error instanceof Error ? error.message : String(error)}`,
        error,
      );
    }
  }
  return migrated;
}

function incompatible(message: string, cause?: unknown): ForkpointError {
  return new ForkpointError('CHECKPOINT_INCOMPATIBLE', message, cause === undefined ? {} : { cause });
}
