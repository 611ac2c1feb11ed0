/** Every mode a run can have, in the order listings name them. The exact strings are part of every output. */
export const RUN_MODES = [
  'record',
  'replay:strict',
  'replay:fidelity',
  'replay:structural',
  'reexecution',
  'fork',
  'fork:prefix',
] as const;

/** How a run came to be. */
export type RunMode = (typeof RUN_MODES)[number];
