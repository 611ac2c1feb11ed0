import { describe, expect, it } from 'vitest';
import scenario, { supervised } from '../../scenarios/claims-triage/index.js';
import { CommandContext } from '../../src/cli/command-context.js';
import { tellApproval } from '../../src/cli/commands/demo-approval.js';
import type { Telling } from '../../src/cli/commands/demo-telling.js';
import { summarizerOf } from '../../src/text/index.js';
import { createEngine } from '../../src/engine/index.js';
import type { Engine } from '../../src/engine/index.js';
import { parseSideEffectOption } from '../../src/firewall/index.js';
import type { StoryApproval } from '../../src/scenario/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { rejectionCode } from '../support/thrown.js';

// The demo's approval chapter told by itself over an in-memory store, from whatever state an earlier telling
// left: cheaper than the whole story, which test/cli/demo.test.ts tells on a fresh database and again on it.
const story = scenario.story;
const approval = story?.approval;
if (story === undefined || approval === undefined) throw new Error('the claims story has no approval chapter');
const chapter: StoryApproval = approval;

/** A telling of the chapter over `engine`, its output captured. */
function telling(engine: Engine): { telling: Telling; stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  const cli = new CommandContext({
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { NO_COLOR: '1' },
  });
  if (story === undefined) throw new Error('no story');
  return {
    telling: {
      cli,
      engine,
      scenario,
      directory: 'scenarios/claims-triage',
      story,
      summarizer: summarizerOf(scenario),
      sideEffects: parseSideEffectOption(story.sideEffects),
    },
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

const memoryEngine = () => createEngine({ store: sqliteStore({ path: ':memory:' }) });
const world = () => scenario.openWorld({ at: chapter.at, seed: chapter.seed, latencyMs: 0 });

describe("the demo's approval chapter", () => {
  it('is the claims story: the supervised build on CLM-91077 on 2026-03-09, a payout above the limit', () => {
    expect(chapter).toMatchObject({ build: 'supervised', input: { claimId: 'CLM-91077' }, at: '2026-03-09' });
    expect(scenario.builds[chapter.build]).toBe(supervised);
  });

  it('answers the run an earlier telling left waiting, and records nothing twice', async () => {
    const engine = memoryEngine();
    const waiting = await engine.record({
      agent: supervised,
      world: world(),
      input: chapter.input,
      runId: chapter.runId,
      scenario: 'scenarios/claims-triage',
      tier: 'synthetic',
    });
    expect(waiting.status).toBe('awaiting-approval');
    const told = telling(engine);
    await tellApproval(told.telling, 9, chapter);
    expect(told.stderr()).toMatch(/run a0091077 is already recorded in :memory:, waiting for its answer/);
    expect(told.stdout()).toContain('awaiting-approval: stopped at rest');
    expect(told.stdout()).toMatch(
      /^ {2}the call: issue_payment#0 \{"amount":1903,.*\} \(step 10\), request [0-9a-f]{16}$/m,
    );
    expect(told.stdout()).toMatch(
      /^record · run a0091077 .* resumed at step 10 \(attempt 2, after awaiting-approval, /m,
    );
    expect(told.stdout()).toMatch(/outcome approve -> refer; issue_payment calls in the branch: 0$/m);
    const run = await engine.getRun(chapter.runId);
    expect(run.steps.map((step) => step.attempt)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2]);
    expect((await engine.listRuns()).map((listed) => listed.mode).sort()).toEqual(['fork', 'record', 'replay:strict']);
  });

  it('refuses another run under its run id, writing nothing', async () => {
    const engine = memoryEngine();
    await engine.record({
      agent: supervised,
      world: scenario.openWorld({ at: chapter.at, seed: 1, latencyMs: 0 }),
      input: { claimId: 'CLM-91002' },
      runId: chapter.runId,
    });
    const before = await engine.listRuns();
    const told = telling(engine);
    expect(await rejectionCode(() => tellApproval(told.telling, 9, chapter))).toBe('RUN_EXISTS');
    expect(await engine.listRuns()).toEqual(before);
  });

  it('refuses a run under its id that stopped before it asked, naming a way out', async () => {
    const engine = memoryEngine();
    // The run reached no approval: the policy service was down on 12 March, so it stopped at fetch_policy.
    const stopped = await engine.record({
      agent: supervised,
      world: scenario.openWorld({ at: '2026-03-12', seed: chapter.seed, latencyMs: 0 }),
      input: chapter.input,
      runId: chapter.runId,
    });
    expect(stopped.error?.code).toBe('TOOL_FAILED');
    const told = telling(engine);
    const atThatDay = { ...chapter, at: '2026-03-12' };
    let message = '';
    try {
      await tellApproval(told.telling, 9, atThatDay);
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(told.stderr()).toBe('');
    expect(message).toMatch(
      /^run a0091077 in :memory: waits for no approval \(its status is failed\); run the demo with --db on another file$/,
    );
  });
});
