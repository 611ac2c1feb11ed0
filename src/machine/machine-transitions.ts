import type { SnapshotFrom } from 'xstate';
import { createActor } from 'xstate';
import type { AgentMachineInput } from './agent-context.js';
import type { AgentEvent } from './agent-events.js';
import type { AgentMachine } from './agent-machine.js';

type AgentSnapshot = SnapshotFrom<AgentMachine>;
type AgentScope = Parameters<AgentMachine['transition']>[2];

// xstate's transition() and initialTransition() build a throwaway actor (with two actor systems and an
// initial snapshot) for every call, only to hand the machine an actor scope. V8 soon allocates some of
// those objects straight in the old generation (allocation-site pretenuring: at start-up they outlive a
// scavenge), and each one then keeps its young actor and snapshot alive through the scavenges after it:
// a suite of 5,000 replays promoted ~240 MiB of garbage instead of ~60 MiB and peaked 10-15 MiB higher.
// The agent machine spawns, invokes, delays and emits nothing, and its actions are all assign(), resolved
// within the transition: an inert scope holds no state between calls, so one per machine serves them all.
const scopes = new WeakMap<AgentMachine, AgentScope>();

function inertScopeOf(machine: AgentMachine): AgentScope {
  let scope = scopes.get(machine);
  if (scope === undefined) {
    // Never started: it only gives the scope its self and system, as xstate's own inert scope does. Its
    // context is never read; the input only satisfies the machine's type.
    const self = createActor(machine, { input: { input: {}, system: '', model: '', firstMessage: '' } });
    scope = {
      self,
      id: '',
      sessionId: '',
      logger: () => {},
      defer: () => {},
      emit: () => {},
      system: self.system,
      stopChild: () => {},
      // What xstate's transition() collects for its caller, which the driver never executes.
      actionExecutor: () => {},
    };
    scopes.set(machine, scope);
  }
  return scope;
}

/**
 * The snapshot a run starts from: what `initialTransition(machine, input)`
 * returns first, without a throwaway actor per call.
 */
export function initialSnapshot(machine: AgentMachine, input: AgentMachineInput): AgentSnapshot {
  return machine.getInitialSnapshot(inertScopeOf(machine), input);
}

/**
 * The snapshot `event` leads to from `snapshot`: what
 * `transition(machine, snapshot, event)` returns first, without a throwaway
 * actor per step.
 */
export function nextSnapshot(machine: AgentMachine, snapshot: AgentSnapshot, event: AgentEvent): AgentSnapshot {
  return machine.transition(snapshot, event, inertScopeOf(machine));
}
