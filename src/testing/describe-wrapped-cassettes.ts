import { relative } from 'node:path';
import { describe, it } from 'vitest';
import { findCassetteFiles } from '../cassette/index.js';
import type { WrappedLoop } from './check-wrapped-replay.js';
import { checkWrappedReplay } from './check-wrapped-replay.js';
import { readFixture } from './read-fixture.js';

/** Options of {@link describeWrappedCassettes}. */
export interface DescribeWrappedCassettesOptions {
  /** The loop, wrapped by the session it is given. */
  readonly loop: WrappedLoop;
  /** The name of the describe block (default: `wrapped cassettes in DIR`). */
  readonly name?: string;
}

/**
 * Turns a folder of a wrapped loop's cassettes (recorded by a session with
 * `tier: 'synthetic'`, exported with `forkpoint export`) into one vitest test
 * per cassette: each replays strictly through the loop and fails with the
 * divergence and its diff when a call changed, or when the loop ends otherwise.
 *
 * @example
 * ```ts
 * import { describeWrappedCassettes } from 'forkpoint/testing';
 * describeWrappedCassettes('test/cassettes', {
 *   loop: async (session) => decisionOf(await myLoop(new Anthropic({ middleware: [session.anthropic()] }))),
 * });
 * ```
 */
export function describeWrappedCassettes(directory: string, options: DescribeWrappedCassettesOptions): void {
  const files = findCassetteFiles(directory);
  describe(options.name ?? `wrapped cassettes in ${directory}`, () => {
    if (files.length === 0) {
      it('holds at least one cassette', () => {
        throw new Error(`no cassette files (*.json) under ${directory}`);
      });
    }
    for (const file of files) {
      it(relative(directory, file), async () => {
        const check = await checkWrappedReplay(await readFixture(file), options.loop, relative(directory, file));
        if (!check.pass) throw new Error(check.message);
      });
    }
  });
}
