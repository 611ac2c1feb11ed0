/**
 * Where one step's observation came from: a cassette (`recorded`), the world
 * now (`live`), a fork's injected change (`override`), the parent's checkpoint
 * (`inherited`), or a side-effecting tool's simulator instead of the real
 * system (`simulated`), or a person answering an approval (`human`).
 */
export type Provenance = 'recorded' | 'live' | 'override' | 'inherited' | 'simulated' | 'human';

/** Every provenance, in the order {@link Provenance} lists them. */
export const PROVENANCES: readonly Provenance[] = ['recorded', 'live', 'override', 'inherited', 'simulated', 'human'];
