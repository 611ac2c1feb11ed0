import type { RequestHasher } from '../cassette/index.js';
import type { CompletedStepOf, RunOrigin, StepSnapshot } from '../driver/index.js';
import { RunWriter } from '../driver/index.js';
import type { RunSink } from '../driver/index.js';
import type { NewRunRecord, RunFinish, RunRecord } from '../store/index.js';

/** How a session's run is written: from which step, through which sink. */
export interface SessionRunPlan {
  readonly run: NewRunRecord;
  readonly sink: RunSink;
  readonly hasher: RequestHasher;
  readonly origin: RunOrigin;
  /**
   * The first step the run's own rows hold: 1, or a `fork:prefix`'s step N
   * (the steps before it are its parent's, which the loop was served again).
   */
  readonly firstStep: number;
}

/**
 * The run a session writes. It is created when its first own row is due: at
 * once for a run from its input (row 0), at step N for a `fork:prefix`, so
 * that a loop that leaves the recording before the fork writes nothing.
 */
export class SessionRun {
  private readonly writer: RunWriter;
  private started = false;

  constructor(private readonly plan: SessionRunPlan) {
    this.writer = new RunWriter(plan.sink, plan.hasher, plan.origin);
  }

  /** The first step whose rows this run holds. */
  get firstStep(): number {
    return this.plan.firstStep;
  }

  /** Whether the run exists in the store (or, buffered, will once it ends). */
  get hasStarted(): boolean {
    return this.started;
  }

  /** The id the run is stored under (a minted one that was taken is replaced when it starts). */
  get runId(): string {
    return this.started ? this.plan.sink.runId : this.plan.run.runId;
  }

  /** Creates the run, with `snapshot` as checkpoint 0 for a run from its input. */
  async start(snapshot: StepSnapshot): Promise<void> {
    if (this.started) return;
    await this.writer.start(this.plan.run, snapshot);
    this.started = true;
  }

  /** Commits a step of the run's own (from {@link firstStep} on). */
  async commit(step: CompletedStepOf<StepSnapshot>): Promise<void> {
    await this.writer.commit(step);
  }

  /** Ends the run, and gives it back as stored. */
  async finish(finish: RunFinish): Promise<RunRecord> {
    try {
      await this.writer.finish(finish);
      return this.writer.storedRun();
    } finally {
      this.plan.sink.close();
    }
  }

  /** Lets go of a run that never started (its lease, if any). */
  abandon(): void {
    this.plan.sink.close();
  }
}
