/**
 * The version of the machine's states and context shape. Every checkpoint
 * stores it; a checkpoint from another version is refused rather than restored
 * into states that may no longer exist (which would crash an XState actor).
 */
export const MACHINE_VERSION = 1;

/** The machine's state names. */
export type AgentStateName = 'awaitingModel' | 'awaitingTools' | 'done' | 'failed';
