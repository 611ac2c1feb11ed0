/**
 * Keeps a store's writes out of the reads open on it, for a store whose
 * connection (or memory) the reads share: a read's work awaits between its
 * queries, and a write of the same store in between would change what the
 * read sees, or, on SQLite, open a write inside its read transaction. Reads
 * that overlap share the state the first of them opened; a write waits until
 * the last of them has ended.
 */
export interface ReadGate {
  /** Whether a read is open. */
  readonly busy: boolean;
  /** Opens a read; true for the first of overlapping reads, which opens the shared state. */
  enter(): boolean;
  /** Ends a read; true for the last of overlapping reads, which closes the shared state. */
  leave(): boolean;
  /** Resolves once no read is open. */
  idle(): Promise<void>;
}

/** A new {@link ReadGate}, with no read open. */
export function readGate(): ReadGate {
  let open = 0;
  let waiting: { promise: Promise<void>; resolve: () => void } | undefined;
  return {
    get busy() {
      return open > 0;
    },
    enter() {
      return ++open === 1;
    },
    leave() {
      if (--open > 0) return false;
      const done = waiting;
      waiting = undefined;
      done?.resolve();
      return true;
    },
    idle() {
      if (open === 0) return Promise.resolve();
      if (waiting === undefined) {
        let resolve = (): void => {};
        const promise = new Promise<void>((settle) => (resolve = settle));
        waiting = { promise, resolve };
      }
      return waiting.promise;
    },
  };
}

/** Waits until `gate` has no read open: what every write of a gated store does first. */
export async function readsEnded(gate: ReadGate): Promise<void> {
  // A read may open between the wake-up and this continuation: look again.
  while (gate.busy) await gate.idle();
}
