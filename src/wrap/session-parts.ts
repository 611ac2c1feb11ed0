import type { ToolSpec } from '../agent/index.js';
import { CassetteIndex } from '../cassette/index.js';
import { lineageOf, restoreCheckpoint } from '../checkpoint/index.js';
import { isToolResponse } from '../conversation/index.js';
import type { EngineDeps } from '../driver/index.js';
import {
  FROM_INPUT,
  assertRunId,
  bufferedSink,
  continuedFrom,
  newRunOwner,
  newRunRecord,
  streamingSink,
} from '../driver/index.js';
import { ForkpointError } from '../errors/index.js';
import type { SideEffectPolicy } from '../firewall/index.js';
import { resolveSideEffectPolicy } from '../firewall/index.js';
import { applyOverride, parseForkOverride } from '../fork/index.js';
import { WRAPPED_LOOP_VERSION } from '../machine/index.js';
import { readStepAt, requireFullTier } from '../read/index.js';
import { conversationShapes } from '../signature/index.js';
import { ConversationLog } from './conversation-log.js';
import type { SessionParts } from './session-core.js';
import type { ForkPrefixSession, RecordSession, ReplaySession } from './session-options.js';
import { SessionRun } from './session-run.js';
import { recordingFor } from './session-sources.js';
import type { SessionFirewall } from './session-transport.js';
import { sessionWorld } from './session-transport.js';
import type { LoopIdentity } from './loop-identity.js';
import { WrappedState } from './wrapped-state.js';

/** What a session's parts need besides its options: the engine's injected world and the tools the loop wraps. */
export interface PartsContext {
  readonly deps: EngineDeps;
  readonly loop: LoopIdentity;
  readonly tools: () => readonly ToolSpec[];
}

/** A recording session: a new run from its input, every step committed as it happens. */
export async function recordParts(context: PartsContext, options: RecordSession): Promise<SessionParts> {
  const { deps, loop } = context;
  const runId = options.runId ?? deps.newRunId();
  assertRunId(runId);
  const log = new ConversationLog();
  const state = new WrappedState(loop.input);
  const run = await newRunRecord(deps, loop.agent, {
    runId,
    mode: 'record',
    scenario: loop.scenario,
    input: loop.input,
    worldAt: null,
    seed: null,
    owner: newRunOwner(deps),
    machineVersion: WRAPPED_LOOP_VERSION,
    tier: tierOf(options.tier),
  });
  const sink = streamingSink(deps.store, deps, { mintRunId: options.runId === undefined ? deps.newRunId : null });
  const sessionRun = new SessionRun({ run, sink, hasher: log.hasher, origin: FROM_INPUT, firstStep: 1 });
  await sessionRun.start(state.current);
  return { world: sessionWorld({ mode: 'record' }), run: sessionRun, state, log };
}

/** A replay: the recording answers; the run is written whole when the session closes. */
export async function replayParts(context: PartsContext, options: ReplaySession): Promise<SessionParts> {
  const { deps, loop } = context;
  const recording = await recordingFor(deps, options.source, loop.agent.name, 'replay');
  const { cassette } = recording;
  const runId = deps.newRunId();
  const log = new ConversationLog();
  const state = new WrappedState(cassette.source.input);
  const run = await newRunRecord(deps, loop.agent, {
    runId,
    mode: options.mode,
    scenario: cassette.source.scenario,
    input: cassette.source.input,
    worldAt: null,
    seed: null,
    sourceRunId: cassette.source.runId,
    machineVersion: WRAPPED_LOOP_VERSION,
    expiresNoLaterThan: cassette.expiresAt ?? null,
    ...(options.mode === 'replay:fidelity' && options.onMiss === 'live'
      ? { sideEffects: policyOf(options.sideEffects) }
      : {}),
  });
  const sessionRun = new SessionRun({
    run,
    sink: bufferedSink(deps.store, { mintRunId: deps.newRunId }),
    hasher: log.hasher,
    origin: FROM_INPUT,
    firstStep: 1,
  });
  await sessionRun.start(state.current);
  const world =
    options.mode === 'replay:strict'
      ? sessionWorld({ mode: 'replay:strict', index: recording.index, runId })
      : sessionWorld({
          mode: 'replay:fidelity',
          index: recording.index,
          runId,
          onMiss: options.onMiss ?? 'stop',
          firewall: firewallOf(context, options.sideEffects),
        });
  return { world, run: sessionRun, state, log };
}

/**
 * A fork by prefix replay: checkpoint N-1 of the recording is read (to know
 * what the fork continues from and to check the override against step N),
 * never restored into the loop, whose own code rebuilds its state over the
 * recorded prefix. Refused before anything is written when the override does
 * not fit step N; the run itself is created at step N.
 */
export async function forkPrefixParts(context: PartsContext, options: ForkPrefixSession): Promise<SessionParts> {
  const { deps, loop } = context;
  const override = parseForkOverride(options.override);
  const recording = await recordingFor(deps, options.source, loop.agent.name, 'fork');
  const parent = recording.run;
  if (parent === undefined) throw new ForkpointError('INTERNAL', 'a fork:prefix recording has no run');
  const { atStep } = options;
  if (!Number.isInteger(atStep) || atStep < 1 || atStep > parent.stepCount)
    throw new ForkpointError(
      'STEP_OUT_OF_RANGE',
      `run ${parent.runId} has steps 1 to ${parent.stepCount}; there is no step ${String(atStep)} to fork at`,
    );
  const { restored, target } = await deps.store.read(async (reader) => {
    await requireFullTier(reader, parent, deps.clock(), 'fork');
    const lineage = await lineageOf(reader, parent.runId, parent);
    const before = await restoreCheckpoint(reader, parent.runId, atStep - 1, lineage);
    return { restored: before, target: await readStepAt(reader, lineage, atStep, before.messageDigests) };
  });
  if (target === undefined || target.kind === 'model' || !isToolResponse(target.response))
    throw new ForkpointError(
      'OVERRIDE_MISMATCH',
      `step ${atStep} of run ${parent.runId} is a model step; a fork by prefix replay changes a tool's answer (tool-result, tool-merge, tool-patch, tool-error). To change the prompt or the model, change the loop and replay it with replay:fidelity`,
    );
  const applied = applyOverride(override, {
    runId: parent.runId,
    step: atStep,
    kind: target.kind,
    index: target.index,
    context: { system: restored.context.system, model: restored.context.model },
    recorded: { type: 'tool', response: target.response },
  });
  if (applied.at !== 'tool') throw new ForkpointError('INTERNAL', 'a tool override applied elsewhere');
  const sideEffects = policyOf(options.sideEffects);
  const log = new ConversationLog();
  const state = new WrappedState(parent.input);
  const runId = deps.newRunId();
  const run = await newRunRecord(deps, loop.agent, {
    runId,
    mode: 'fork:prefix',
    scenario: parent.scenario,
    input: parent.input,
    worldAt: null,
    seed: null,
    parent: { runId: parent.runId, atStep, override, changes: applied.changes },
    owner: newRunOwner(deps),
    sideEffects,
    machineVersion: WRAPPED_LOOP_VERSION,
    expiresNoLaterThan: parent.expiresAt,
  });
  const sessionRun = new SessionRun({
    run,
    sink: streamingSink(deps.store, deps, { mintRunId: deps.newRunId }),
    hasher: log.hasher,
    origin: continuedFrom(
      { messageCount: restored.context.messages.length },
      conversationShapes(restored.context.messages),
    ),
    firstStep: atStep,
  });
  const world = sessionWorld({
    mode: 'fork:prefix',
    index: new CassetteIndex(recording.cassette),
    runId,
    atStep,
    answer: applied.response,
    firewall: firewallOf(context, options.sideEffects),
  });
  return { world, run: sessionRun, state, log, forkStep: { step: atStep, kind: target.kind, index: target.index } };
}

function firewallOf(context: PartsContext, option: unknown): SessionFirewall {
  return { tools: context.tools, policy: policyOf(option) };
}

// A session learns its tools as the loop wraps them, so a policy may name any tool: each named one is taken
// to be side-effecting (a read-only one is never stopped, whatever the policy says).
function policyOf(option: unknown): SideEffectPolicy {
  const named =
    typeof option === 'object' && option !== null && 'tools' in option && typeof option.tools === 'object'
      ? Object.keys(option.tools ?? {})
      : [];
  return resolveSideEffectPolicy(
    option,
    named.map((name) => ({ name, description: '', inputSchema: {}, readOnly: false })),
  );
}

function tierOf(tier: unknown): 'full' | 'synthetic' {
  if (tier === undefined || tier === 'full' || tier === 'synthetic') return tier ?? 'full';
  throw new ForkpointError('USAGE', `a recording session's tier is full or synthetic, got ${JSON.stringify(tier)}`);
}
