/**
 * The version of the machine's states and context shape. Every checkpoint
 * stores it; a checkpoint from another version is refused rather than restored
 * into states that may no longer exist (which would crash an XState actor).
 *
 * Version 2 added the `awaitingApproval` state and the context's `approved`
 * call; a version 1 checkpoint holds neither and is a valid version 2 one.
 */
export const MACHINE_VERSION = 2;

/**
 * The machine version of a run that no forkpoint machine drove: a wrapped
 * session's, whose loop is the caller's own. Its checkpoints are the
 * conversation so far, in the machine's checkpoint shape, for reading only:
 * nothing can continue from them but the caller's loop (a `fork:prefix`).
 */
export const WRAPPED_LOOP_VERSION = 0;

/** The machine's state names. */
export type AgentStateName = 'awaitingModel' | 'awaitingTools' | 'awaitingApproval' | 'done' | 'failed';
