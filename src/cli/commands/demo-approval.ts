import { isDeepStrictEqual } from 'node:util';
import type { AgentBuild } from '../../agent/index.js';
import { compareRuns } from '../../analysis/index.js';
import { APPROVAL_KIND, approvalQuestionOf } from '../../conversation/index.js';
import type { RunSummary, RunView } from '../../engine/index.js';
import { ForkpointError, isForkpointError } from '../../errors/index.js';
import { pendingApprovalOf, requireRun } from '../../read/index.js';
import type { StoryApproval } from '../../scenario/index.js';
import { buildOf } from '../../scenario/index.js';
import type { World } from '../../world/index.js';
import { formatRun, formatRunBrief } from '../output/format-run.js';
import type { Telling } from './demo-telling.js';
import { chapter } from './demo-telling.js';

/**
 * The approval chapter: the story's build recorded where its rule asks a
 * person (it stops at rest, naming the call), approved by the story's
 * reviewer (the run goes on in place and the call is made), replayed strictly
 * (the answer served from the recording: nobody asked, no live call), and
 * forked at the answer with a rejection, compared with the approved run.
 */
export async function tellApproval(telling: Telling, number: number, approval: StoryApproval): Promise<void> {
  const { cli, engine, summarizer } = telling;
  chapter(cli, number, approval.text.chapter);
  const agent = buildOf(telling.scenario, approval.build);
  // A fresh world for each run: a simulated model's sampling has state. The story's seed keeps the words the same.
  const world = () => cli.openWorld(telling.scenario, { at: approval.at, seed: approval.seed, latencyMs: 0 });
  const approved = await approvedRun(telling, approval, agent, world);
  const answer = approved.steps.find((step) => step.kind === APPROVAL_KIND);
  if (answer === undefined)
    throw new ForkpointError('INTERNAL', `run ${approved.runId} went on without an answer to its approval`);

  const replay = await engine.replay({
    agent,
    cassette: await engine.cassette(approved.runId),
    mode: 'strict',
    scenario: telling.directory,
  });
  cli.print(formatRunBrief(replay, cli.style, summarizer));
  const served = replay.steps.find((step) => step.kind === APPROVAL_KIND);
  const live = replay.steps.filter((step) => step.provenance === 'live' || step.provenance === 'human').length;
  cli.print(
    `The answer at step ${served?.step ?? '-'} came from the recording (${served?.kind ?? APPROVAL_KIND}#${served?.index ?? 0} ${served?.provenance ?? 'missing'}): nobody was asked. Live calls: ${live}.`,
  );
  cli.print(approval.text.replayed);

  cli.print(
    `\`forkpoint fork ${approved.runId} --at-step ${answer.step} --approval rejected --reason "${approval.rejection}"\` answers it otherwise:`,
  );
  const fork = await engine.fork({
    parentRunId: approved.runId,
    atStep: answer.step,
    override: { kind: 'approval', approved: false, note: approval.rejection },
    agent,
    world: world(),
    scenario: telling.directory,
  });
  const branch = await engine.getRun(fork.runId);
  cli.print(formatRunBrief(branch, cli.style, summarizer));
  const first = compareRuns(approved, branch, (step) => summarizer.step(step)).firstDivergence;
  const word = (run: RunView) => (run.status === 'completed' ? summarizer.verdict(run.outcome) : run.status);
  const tool = approvalQuestionOf(answer.request)?.tool ?? 'the call';
  const made = branch.steps.filter((step) => step.kind === tool).length;
  cli.print(
    `compare ${approved.runId} ${branch.runId}: first divergence at step ${first?.step ?? '-'}${first === null ? '' : ` (${first.kind}#${first.index}, on the ${first.on})`}; outcome ${word(approved)} -> ${word(branch)}; ${tool} calls in the branch: ${made}`,
  );
  cli.print(approval.text.rejected);
}

// The story's run under its fixed id, answered: recorded and approved here, or found in the database from an
// earlier telling (approved then, or still waiting if that telling stopped between the two).
async function approvedRun(
  telling: Telling,
  approval: StoryApproval,
  agent: AgentBuild,
  world: () => World,
): Promise<RunView> {
  const { cli, engine, summarizer } = telling;
  const { runId } = approval;
  const location = engine.store.location;
  const existing = await storedRun(telling, approval);
  if (existing?.status === 'completed') {
    cli.note(`(run ${runId} is already recorded and answered in ${location}; showing it)`);
    const run = await engine.getRun(runId);
    cli.print(formatRun(run, cli.style, summarizer));
    return run;
  }
  if (existing === undefined) {
    const recorded = await engine.record({
      agent,
      world: world(),
      input: approval.input,
      scenario: telling.directory,
      runId,
      // Made up, like the incident: kept without expiry, so the story can be told again any day.
      tier: 'synthetic',
    });
    cli.print(formatRun(recorded, cli.style, summarizer));
  }
  const pending = await pendingApprovalOf(engine.store, await requireRun(engine.store, runId));
  if (pending === undefined) {
    throw new ForkpointError(
      'RUN_EXISTS',
      `run ${runId} in ${location} waits for no approval (its status is ${existing?.status ?? 'recorded'}); run the demo with --db on another file`,
      { details: { runId, path: location } },
    );
  }
  if (existing !== undefined) {
    cli.note(`(run ${runId} is already recorded in ${location}, waiting for its answer)`);
    cli.print(formatRun(await engine.getRun(runId), cli.style, summarizer));
  }
  cli.print(approval.text.waiting);
  cli.print(
    `\`forkpoint approve ${runId} --call ${pending.requestHash} --by ${approval.reviewer} --reason "${approval.note}"\`:`,
  );
  const approved = await engine.approve({
    runId,
    agent,
    world: world(),
    by: approval.reviewer,
    note: approval.note,
    requestHash: pending.requestHash,
  });
  cli.print(formatRun(approved, cli.style, summarizer));
  cli.print(approval.text.approved);
  return approved;
}

// The run under the story's id, if the database holds it; refused when it is some other run.
async function storedRun(telling: Telling, approval: StoryApproval): Promise<RunSummary | undefined> {
  const { engine } = telling;
  let run: RunSummary;
  try {
    run = await engine.getRunSummary(approval.runId);
  } catch (error) {
    if (isForkpointError(error, 'RUN_NOT_FOUND')) return undefined;
    throw error;
  }
  if (
    run.mode !== 'record' ||
    run.agent.build !== approval.build ||
    !isDeepStrictEqual(run.input, approval.input) ||
    run.worldAt !== approval.at
  ) {
    throw new ForkpointError(
      'RUN_EXISTS',
      `run ${approval.runId} in ${engine.store.location} is not the story's ${approval.build} recording; run the demo with --db on another file`,
      { details: { runId: approval.runId, path: engine.store.location } },
    );
  }
  return run;
}
