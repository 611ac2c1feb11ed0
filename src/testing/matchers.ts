import type { AgentBuild } from '../agent/index.js';
import type { Cassette } from '../cassette/index.js';
import { readFixture } from './read-fixture.js';
import { checkStrictReplay } from './check-strict-replay.js';
import type { WrappedLoop } from './check-wrapped-replay.js';
import { checkWrappedReplay } from './check-wrapped-replay.js';
import type { CalledOptions } from './check-called.js';
import type { TrajectoryOptions } from './check-trajectory.js';
import { trajectoryMatchers } from './trajectory-matchers.js';

/**
 * Custom matchers for vitest. Register them once (`expect.extend(forkpointMatchers)`),
 * then `await expect(cassette).toReplayStrictly(build)` passes when the
 * cassette (or the cassette file at a path) replays strictly with the build
 * and ends as recorded, and `await expect(cassette).toReplayStrictlyThrough(loop)`
 * when a wrapped loop's cassette replays strictly through the loop. The
 * trajectory matchers (`toHaveCalled`, `toHaveTrajectory`, `toHaveStepsAtMost`,
 * `toHaveCalledWith`) assert on a run's steps, and name the first step that
 * broke the expectation.
 *
 * @example
 * ```ts
 * expect.extend(forkpointMatchers);
 * const replay = await engine.replay({ agent: patched, cassette, mode: 'strict' });
 * expect(replay).not.toHaveCalled('estimate_repair');
 * expect(replay).toHaveTrajectory(['fetch_claim', 'ocr_document'], { order: 'strict' });
 * ```
 */
export const forkpointMatchers = {
  ...trajectoryMatchers,
  async toReplayStrictly(this: { isNot: boolean }, received: Cassette | string, agent: AgentBuild) {
    const cassette = typeof received === 'string' ? await readFixture(received) : received;
    const check = await checkStrictReplay(cassette, agent, typeof received === 'string' ? received : undefined);
    return {
      pass: check.pass,
      message: () => (this.isNot ? `expected the replay not to pass, but ${check.message}` : check.message),
    };
  },
  async toReplayStrictlyThrough(this: { isNot: boolean }, received: Cassette | string, loop: WrappedLoop) {
    const cassette = typeof received === 'string' ? await readFixture(received) : received;
    const check = await checkWrappedReplay(cassette, loop, typeof received === 'string' ? received : undefined);
    return {
      pass: check.pass,
      message: () => (this.isNot ? `expected the replay not to pass, but ${check.message}` : check.message),
    };
  },
};

/**
 * The matchers' signatures, for the vitest type augmentation below. The
 * trajectory matchers take a run with its steps (`TrajectorySubject`).
 */
export interface ForkpointMatchers<R = unknown> {
  toReplayStrictly(agent: AgentBuild): Promise<R>;
  toReplayStrictlyThrough(loop: WrappedLoop): Promise<R>;
  /** The run called `tool`: at least once, or exactly `options.times` times (each attempt of a retried call counts). */
  toHaveCalled(tool: string, options?: CalledOptions): R;
  /** The run's tool calls match `expected` in the order mode: `strict` (default), `unordered`, `subset`, `superset`. */
  toHaveTrajectory(expected: readonly string[], options?: TrajectoryOptions): R;
  /** The run made at most `limit` steps of every kind. */
  toHaveStepsAtMost(limit: number): R;
  /** Some call of `tool` had this input: a plain value compared deeply, or an asymmetric matcher. */
  toHaveCalledWith(tool: string, expected: unknown): R;
}

declare module 'vitest' {
  // vitest declares `Matchers<T = any>`; declaration merging needs the same type parameter, so this is the one `any`.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type -- a merge into vitest's Matchers
  interface Matchers<T = any> extends ForkpointMatchers<T> {}
}
