/** How a run came to be. The exact strings are part of every output. */
export type RunMode = 'record' | 'replay:strict' | 'replay:fidelity' | 'replay:structural' | 'reexecution' | 'fork';
