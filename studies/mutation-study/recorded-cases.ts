import type { AgentBuild } from '../../src/agent/index.js';
import type { Cassette } from '../../src/cassette/index.js';
import type { Engine } from '../../src/engine/index.js';
import type { SyntheticCase, SyntheticSupport } from '../../src/scenario/index.js';
import { evaluateSynthetic } from '../../src/workflows/index.js';

/** One synthetic case as recorded: both tiers of its run. */
export interface RecordedCase {
  readonly id: string;
  readonly full: Cassette;
  readonly structural: Cassette;
}

/** What {@link recordCases} needs. */
export interface RecordCasesOptions {
  readonly engine: Engine;
  readonly agent: AgentBuild;
  readonly cases: readonly SyntheticCase[];
  readonly support: SyntheticSupport;
  /** Every case runs with this seed, so the recording is the same each time the study runs. */
  readonly seed: number;
}

/** Records every case with one build (synthetic tier) and takes each run's full and structural cassettes. */
export async function recordCases(options: RecordCasesOptions): Promise<RecordedCase[]> {
  const { engine } = options;
  const evaluation = await evaluateSynthetic(engine, {
    support: options.support,
    cases: options.cases,
    agent: options.agent,
    scenario: 'scenarios/claims-triage',
    seed: options.seed,
  });
  const cases = [];
  for (const result of evaluation.cases)
    cases.push({
      id: result.id,
      full: await engine.cassette(result.runId, 'full'),
      structural: await engine.cassette(result.runId, 'structural'),
    });
  return cases;
}
