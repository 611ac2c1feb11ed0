// A type, not an interface: it is stored and printed as the plain JSON it is.

/**
 * What was done to a checkpoint so that a build could continue it, kept on
 * the run that continued it (a fork's `parent.migration`, a resume's
 * `migration`): forkpoint's own machine migrations, from the version that
 * wrote the checkpoint to this one, and the build's state migration, from
 * the version of state the checkpoint kept (null: none) to the build's
 * (null: it keeps none). It holds versions only, no payload, so that it
 * outlives the full tier.
 */
export type CheckpointMigration = {
  readonly machine: { readonly from: number; readonly to: number } | null;
  readonly state: {
    readonly from: number | null;
    readonly to: number | null;
    /** The build whose migration made the state its own, or whose lack of state set it aside. */
    readonly build: string;
  } | null;
};

/** Whether `value` has the form of a {@link CheckpointMigration}: what a store checks of the column it reads. */
export function isCheckpointMigration(value: unknown): value is CheckpointMigration {
  if (!isRecord(value)) return false;
  const { machine, state } = value;
  const machineOk = machine === null || (isRecord(machine) && isVersion(machine.from) && isVersion(machine.to));
  const stateOk =
    state === null ||
    (isRecord(state) &&
      (state.from === null || isVersion(state.from)) &&
      (state.to === null || isVersion(state.to)) &&
      typeof state.build === 'string');
  return machineOk && stateOk;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isVersion = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value);

/** A migration in a few words, as `show` and `tree` print it: `machine 1 -> 2, state 1 -> 2 (build supervised)`. */
export function describeCheckpointMigration(migration: CheckpointMigration): string {
  const words: string[] = [];
  if (migration.machine !== null) words.push(`machine ${migration.machine.from} -> ${migration.machine.to}`);
  if (migration.state !== null) {
    const { from, to, build } = migration.state;
    words.push(
      to === null
        ? `state ${from ?? 'none'} set aside (build ${build} keeps none)`
        : `state ${from ?? 'none'} -> ${to} (migration of build ${build})`,
    );
  }
  return words.join(', ');
}
