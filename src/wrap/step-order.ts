/**
 * Lets steps finish in step order: a step's rows are committed, and its state
 * applied, only after every step before it. A loop may run its tool calls at
 * once and see them complete in any order; the trajectory keeps the order they
 * were numbered in.
 */
export class StepOrder {
  private next: number;
  private readonly waiting = new Map<number, () => void>();
  private released = false;

  /** @param after the last step already in place (0 for a new run) */
  constructor(after = 0) {
    this.next = after + 1;
  }

  /** Resolves when `step` is next. */
  turn(step: number): Promise<void> {
    if (step <= this.next || this.released) return Promise.resolve();
    return new Promise((resolve) => this.waiting.set(step, resolve));
  }

  /** Marks `step` done (committed, or given back), letting the one after it go. */
  done(step: number): void {
    this.next = Math.max(this.next, step + 1);
    const wake = this.waiting.get(this.next);
    if (wake !== undefined) {
      this.waiting.delete(this.next);
      wake();
    }
  }

  /**
   * Wakes every waiting step: the session stopped, and nothing more will be committed in order. For good: a
   * call that took its position before the stop and gets its answer after it would otherwise wait for a step
   * that never comes.
   */
  release(): void {
    this.released = true;
    for (const wake of this.waiting.values()) wake();
    this.waiting.clear();
  }
}
