import { ForkpointError } from '../errors/index.js';
import type { RunView, StepView } from '../read/index.js';

/**
 * What the trajectory matchers read: a run with all its steps (`RunView` from
 * `engine.getRun(id)`, a `RecordResult`, `ReplayResult`, `ReexecutionResult`,
 * `ResumeResult`, or what a wrapped loop's `session.close()` gives), or its
 * steps themselves. Not a `ForkResult`: it holds only the fork's own steps.
 */
export type TrajectorySubject = { readonly steps: readonly StepView[] } | readonly StepView[];

/** A subject's steps, and the run they belong to when it is one (for its headline). */
export interface Trajectory {
  readonly steps: readonly StepView[];
  readonly run: RunView | null;
}

/** What a check needs of the steps: their payloads too (`toHaveCalledWith`), or only their kinds. */
export interface TrajectoryNeeds {
  readonly payloads: boolean;
}

/**
 * The trajectory of what a matcher was given. It refuses what would make a
 * check pass on nothing, since a `.not` would then pass too: a fork's result
 * (its inherited steps are not in it), a run whose full tier has expired (no
 * steps are left), a structural run's shapes where inputs are compared.
 */
export function trajectoryOf(received: unknown, needs: TrajectoryNeeds): Trajectory {
  if (Array.isArray(received)) return { steps: stepsIn(received), run: null };
  if (typeof received !== 'object' || received === null)
    throw new ForkpointError('USAGE', `expected a run or its steps, got ${String(received)}`);
  const subject = received as Record<string, unknown>;
  const runId = typeof subject.runId === 'string' ? `run ${subject.runId}` : 'the run';
  if (!Array.isArray(subject.steps)) {
    if (Array.isArray(subject.ownSteps)) throw forkResultRefused(subject, runId);
    throw new ForkpointError(
      'USAGE',
      `expected a run with its steps (engine.getRun(id), a record, replay or resume result, a session's result), got an object without steps`,
    );
  }
  const retention = subject.retention as Partial<RunView['retention']> | undefined;
  if (retention?.expired === true)
    throw new ForkpointError(
      'CASSETTE_EXPIRED',
      `${runId}'s full tier has expired: its steps are gone, so no trajectory of it can be checked`,
    );
  if (needs.payloads && retention?.tier === 'structural')
    throw new ForkpointError(
      'USAGE',
      `${runId} holds shapes (structural tier), not inputs: its calls can be checked, but not what they were called with`,
    );
  return { steps: stepsIn(subject.steps), run: isRunView(subject) ? subject : null };
}

function forkResultRefused(subject: Record<string, unknown>, runId: string): ForkpointError {
  const parent = subject.parent as { readonly atStep?: unknown } | null | undefined;
  const atStep = typeof parent?.atStep === 'number' ? parent.atStep : undefined;
  const inherited = atStep === undefined ? "its parent's steps" : `its parent's steps 1..${atStep - 1}`;
  const id = typeof subject.runId === 'string' ? `'${subject.runId}'` : 'fork.runId';
  return new ForkpointError(
    'USAGE',
    `${runId} is a fork's result: it holds only the steps the fork made, and its trajectory starts with ${inherited}. Check the whole run: expect(await engine.getRun(${id}))`,
  );
}

function stepsIn(list: readonly unknown[]): readonly StepView[] {
  const odd = list.findIndex((item) => !isStep(item));
  if (odd >= 0)
    throw new ForkpointError(
      'USAGE',
      `expected steps (step, kind, index, ...), got ${(JSON.stringify(list[odd]) as string | undefined) ?? String(list[odd])}`,
    );
  return list as readonly StepView[];
}

function isStep(item: unknown): boolean {
  if (typeof item !== 'object' || item === null) return false;
  const step = item as Record<string, unknown>;
  return typeof step.step === 'number' && typeof step.kind === 'string' && typeof step.index === 'number';
}

// What a run's headline reads: an object that has it all prints the line `show` starts with.
function isRunView(subject: Record<string, unknown>): subject is Record<string, unknown> & RunView {
  const agent = subject.agent as Partial<RunView['agent']> | null | undefined;
  return (
    typeof subject.mode === 'string' &&
    typeof subject.runId === 'string' &&
    typeof agent?.name === 'string' &&
    typeof subject.input === 'object' &&
    subject.input !== null &&
    Array.isArray(subject.resumes) &&
    'sideEffects' in subject &&
    'parent' in subject
  );
}
