import { assign, setup } from 'xstate';
import type { AgentBuild } from '../agent/index.js';
import type { AgentContext, AgentMachineInput } from './agent-context.js';
import { initialContext } from './agent-context.js';
import type { AgentEvent } from './agent-events.js';
import type { AgentStateName } from './machine-version.js';
import type { Observed } from './observe.js';
import { failObservation, isAwaitedCall, observeApproval, observeModelResponse, observeToolResult } from './observe.js';
import { takeIntoBuildState } from './build-state.js';

/**
 * Builds the agent loop of one build as a pure XState machine. It performs no
 * I/O and holds no promise: the driver asks what it awaits, fetches the answer
 * and sends it in as an event, so every snapshot is at rest and can be
 * checkpointed and restored without re-issuing a call.
 *
 * @example
 * ```ts
 * const machine = createAgentMachine(baseline);
 * let [snapshot] = initialTransition(machine, start);
 * [snapshot] = transition(machine, snapshot, { type: 'model.responded', response });
 * ```
 */
export function createAgentMachine(build: AgentBuild) {
  // Guards and the action read the same observation; computing it once per
  // (context, event) pair keeps the hooks from running twice per step. They
  // read it one after another within a transition, so the last pair is all
  // there is to remember. A WeakMap of every pair did the same, but V8's
  // young-generation collector keeps a WeakMap's values alive until a full
  // collection: every step's context (and its conversation) was promoted to
  // the old generation, so long runs and suites of many replays grew the heap
  // and paid for it in full collections.
  let last: { readonly context: AgentContext; readonly event: AgentEvent; readonly observed: Observed } | undefined;
  const observe = (context: AgentContext, event: AgentEvent): Observed => {
    if (last?.context !== context || last.event !== event)
      last = { context, event, observed: reduce(build, context, event) };
    return last.observed;
  };
  const leadsTo = (context: AgentContext, event: AgentEvent, next: AgentStateName): boolean =>
    observe(context, event).next === next;

  return setup({
    types: {
      context: {} as AgentContext,
      events: {} as AgentEvent,
      input: {} as AgentMachineInput,
    },
    guards: {
      leadsTo: ({ context, event }, next: AgentStateName) => leadsTo(context, event, next),
      isUnexpectedCall: ({ context, event }) =>
        (event.type === 'tool.returned' || event.type === 'approval.answered') && !isAwaitedCall(context, event.call),
    },
    actions: {
      applyObservation: assign(({ context, event }) => {
        const observed = observe(context, event);
        // The action comes after the guards: forgetting the pair now keeps a finished run's state from
        // staying reachable through the build's machine.
        last = undefined;
        return observed.context;
      }),
      applyOverride: assign(({ context, event }) => {
        if (event.type !== 'fork.overridden') return context;
        return { ...context, system: event.system ?? context.system, model: event.model ?? context.model };
      }),
    },
  }).createMachine({
    id: 'agent',
    // xstate's transition() builds a throwaway actor that computes an initial snapshot with no input; a
    // factory that threw there cost every transition a caught TypeError (about 30 µs). That context is
    // discarded, so any placeholder does.
    context: ({ input }: { readonly input: AgentMachineInput | undefined }) =>
      input === undefined ? PLACEHOLDER_CONTEXT : initialContext(input),
    initial: 'awaitingModel',
    states: {
      awaitingModel: {
        on: {
          // A paused turn (`pause_turn`) leads back here: the next model call continues it.
          'model.responded': observationTargets(['awaitingTools', 'awaitingApproval', 'awaitingModel', 'done']),
          'fork.overridden': { actions: 'applyOverride' },
        },
      },
      awaitingTools: {
        on: {
          'tool.returned': [
            // A result for any call but the awaited one is not an observation of this state.
            { guard: { type: 'isUnexpectedCall' } },
            ...observationTargets(['awaitingModel', 'awaitingTools', 'awaitingApproval', 'done']),
          ],
        },
      },
      awaitingApproval: {
        on: {
          'approval.answered': [
            { guard: { type: 'isUnexpectedCall' } },
            ...observationTargets(['awaitingTools', 'awaitingApproval', 'awaitingModel']),
          ],
        },
      },
      done: { type: 'final' },
      failed: { type: 'final' },
    },
  });
}

// Never observed: see the machine's context factory.
const PLACEHOLDER_CONTEXT = initialContext({ input: {}, system: '', model: '', firstMessage: '' });

/** The machine type of a build: what `transition` and `initialTransition` accept. */
export type AgentMachine = ReturnType<typeof createAgentMachine>;

// One transition per state an observation may lead to, in the order they are tried, and `failed` for the rest.
function observationTargets(targets: readonly Exclude<AgentStateName, 'failed'>[]) {
  return [
    ...targets.map((target) => ({
      guard: { type: 'leadsTo' as const, params: target },
      target,
      actions: 'applyObservation' as const,
    })),
    { target: 'failed' as const, actions: 'applyObservation' as const },
  ];
}

function reduce(build: AgentBuild, observed: AgentContext, event: AgentEvent): Observed {
  // The build's state takes the observation in first, so that its hooks read the state after it.
  const taken = takeIntoBuildState(build, observed, event);
  if (!taken.ok) return failObservation(observed, 'HOOK_FAILED', taken.message);
  const { context } = taken;
  switch (event.type) {
    case 'model.responded':
      return observeModelResponse(build, context, event.response);
    case 'tool.returned':
      return observeToolResult(build, context, event.call, event.response);
    case 'approval.answered':
      return observeApproval(build, context, event.call, event.answer);
    case 'fork.overridden':
      return { context, next: 'awaitingModel' };
  }
}
