import type { AgentBuild } from '../../src/agent/index.js';
import type { Engine } from '../../src/engine/index.js';
import type { ReplayResult } from '../../src/modes/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import type { RecordedCase } from './recorded-cases.js';
import { strictReplayCatches, structuralEndingChanged } from './replay-ending.js';

/** The cassettes one tier caught, by case id in suite order. */
export interface CaughtCassettes {
  readonly count: number;
  readonly caseIds: readonly string[];
}

/** A replay forkpoint itself could not finish: it threw `INTERNAL` instead of ending the run. */
export interface Crash {
  readonly caseId: string;
  readonly tier: 'full' | 'structural';
  readonly message: string;
}

/** What each replay tier made of one build over every recorded case. */
export interface TierCatches {
  /** Strict replays of full cassettes that diverged or ended otherwise than the recording. */
  readonly full: CaughtCassettes;
  /** Structural replays of structural cassettes that diverged. */
  readonly structural: CaughtCassettes;
  /**
   * Structural replays that did not diverge but ended otherwise than the
   * recording (status, failure code or step): a change the structural tier
   * reproduced without forkpoint calling it a divergence.
   */
  readonly structuralEndingOnly: CaughtCassettes;
  /** Replays that threw instead of ending: counted in no tier's catches, since no verdict was reached. */
  readonly crashes: readonly Crash[];
}

/** Replays every recorded case with `agent`, strictly over its full cassette and structurally over its structural one. */
export async function catchesOf(
  engine: Engine,
  agent: AgentBuild,
  recorded: readonly RecordedCase[],
): Promise<TierCatches> {
  const full: string[] = [];
  const structural: string[] = [];
  const structuralEndingOnly: string[] = [];
  const crashes: Crash[] = [];
  for (const recording of recorded) {
    const strict = await replayOrCrash(
      () => engine.replay({ agent, cassette: recording.full, mode: 'strict' }),
      recording.id,
      'full',
      crashes,
    );
    if (strict !== undefined && strictReplayCatches(recording.full, strict)) full.push(recording.id);
    const shaped = await replayOrCrash(
      () => engine.replay({ agent, cassette: recording.structural, mode: 'structural' }),
      recording.id,
      'structural',
      crashes,
    );
    if (shaped?.status === 'diverged') structural.push(recording.id);
    else if (shaped !== undefined && structuralEndingChanged(recording.structural, shaped))
      structuralEndingOnly.push(recording.id);
  }
  return {
    full: caught(full),
    structural: caught(structural),
    structuralEndingOnly: caught(structuralEndingOnly),
    crashes,
  };
}

const caught = (caseIds: readonly string[]): CaughtCassettes => ({ count: caseIds.length, caseIds });

// Only forkpoint's own INTERNAL failures are kept as crashes: anything else is the study's bug and propagates.
async function replayOrCrash(
  replay: () => Promise<ReplayResult>,
  caseId: string,
  tier: Crash['tier'],
  crashes: Crash[],
): Promise<ReplayResult | undefined> {
  try {
    return await replay();
  } catch (error) {
    if (!isForkpointError(error) || error.code !== 'INTERNAL') throw error;
    crashes.push({ caseId, tier, message: error.message });
    return undefined;
  }
}
