import { relative } from 'node:path';
import { describe, it } from 'vitest';
import type { AgentBuild } from '../agent/index.js';
import type { Cassette } from '../cassette/index.js';
import { findCassetteFiles } from '../cassette/index.js';
import { readFixture } from './read-fixture.js';
import { checkStrictReplay } from './check-strict-replay.js';

/** Options of {@link describeCassettes}. */
export interface DescribeCassettesOptions {
  /** The build to replay, or a function choosing one per cassette. */
  readonly agent: AgentBuild | ((cassette: Cassette) => AgentBuild);
  /** The name of the describe block (default: `cassettes in DIR`). */
  readonly name?: string;
}

/**
 * Turns a folder of cassettes into one vitest test per cassette: each replays
 * strictly and fails when a request hash changes (a divergence, with its
 * diff) or the outcome differs from the recorded one.
 *
 * @example
 * ```ts
 * import { describeCassettes } from 'forkpoint/testing';
 * import { baseline } from '../scenarios/claims-triage/index.js';
 * describeCassettes('test/fixtures/cassettes', { agent: baseline });
 * ```
 */
export function describeCassettes(directory: string, options: DescribeCassettesOptions): void {
  const files = findCassetteFiles(directory);
  describe(options.name ?? `cassettes in ${directory}`, () => {
    if (files.length === 0) {
      it('holds at least one cassette', () => {
        throw new Error(`no cassette files (*.json) under ${directory}`);
      });
    }
    for (const file of files) {
      it(relative(directory, file), async () => {
        const cassette = await readFixture(file);
        const agent = typeof options.agent === 'function' ? options.agent(cassette) : options.agent;
        const check = await checkStrictReplay(cassette, agent, relative(directory, file));
        if (!check.pass) throw new Error(check.message);
      });
    }
  });
}
