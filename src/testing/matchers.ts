import type { AgentBuild } from '../agent/index.js';
import type { Cassette } from '../cassette/index.js';
import { readFixture } from './read-fixture.js';
import { checkStrictReplay } from './check-strict-replay.js';
import type { WrappedLoop } from './check-wrapped-replay.js';
import { checkWrappedReplay } from './check-wrapped-replay.js';

/**
 * Custom matchers for vitest. Register them once (`expect.extend(forkpointMatchers)`),
 * then `await expect(cassette).toReplayStrictly(build)` passes when the
 * cassette (or the cassette file at a path) replays strictly with the build
 * and ends as recorded, and `await expect(cassette).toReplayStrictlyThrough(loop)`
 * when a wrapped loop's cassette replays strictly through the loop.
 */
export const forkpointMatchers = {
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

/** The matcher's signature, for the vitest type augmentation below. */
export interface ForkpointMatchers<R = unknown> {
  toReplayStrictly(agent: AgentBuild): Promise<R>;
  toReplayStrictlyThrough(loop: WrappedLoop): Promise<R>;
}

declare module 'vitest' {
  // vitest declares `Matchers<T = any>`; declaration merging needs the same type parameter, so this is the one `any`.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type -- a merge into vitest's Matchers
  interface Matchers<T = any> extends ForkpointMatchers<T> {}
}
