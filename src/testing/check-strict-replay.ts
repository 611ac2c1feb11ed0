import { runSuite } from '../workflows/index.js';
import type { AgentBuild } from '../agent/index.js';
import type { Cassette } from '../cassette/index.js';
import { createEngine } from '../engine/index.js';
import type { SuiteCase } from '../workflows/index.js';
import { sqliteStore } from '../store/index.js';

/** Whether a cassette replays strictly with a build, and why not. */
export interface StrictReplayCheck {
  readonly pass: boolean;
  readonly message: string;
  readonly case: SuiteCase;
}

/**
 * Replays one cassette strictly with `agent` in a throwaway in-memory store
 * and says whether it passed: no request hash changed (no divergence) and the
 * run ended as the recording did.
 */
export async function checkStrictReplay(
  cassette: Cassette,
  agent: AgentBuild,
  name = cassette.source.runId,
): Promise<StrictReplayCheck> {
  const store = sqliteStore({ path: ':memory:' });
  try {
    const result = await runSuite(createEngine({ store }), { cassettes: [{ name, cassette }], agent });
    const [item] = result.cases;
    if (item === undefined) throw new Error(`the suite of cassette ${name} reported no case`);
    return { pass: item.status === 'passed', message: explain(item, agent), case: item };
  } finally {
    await store.close();
  }
}

function explain(item: SuiteCase, agent: AgentBuild): string {
  switch (item.status) {
    case 'passed':
      return `${item.name} replays strictly with ${agent.build} and ends as recorded (${item.recorded ?? '?'})`;
    case 'diverged':
      return `${item.name} diverged under ${agent.build}: ${item.divergence?.message ?? ''}${(
        item.divergence?.diff ?? []
      )
        .map((change) => `\n  ${change.path}: ${change.before} -> ${change.after}`)
        .join('')}`;
    case 'failed':
      return `${item.name} ended differently under ${agent.build}: recorded ${item.recorded ?? '?'}, replayed ${item.replayed ?? '?'}`;
    case 'invalid':
      return `${item.name} could not be replayed: ${item.error?.code ?? ''}: ${item.error?.message ?? ''}`;
  }
}
