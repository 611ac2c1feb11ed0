/**
 * The scenarios forkpoint ships, found as `loadScenario` finds any directory
 * (from the working directory, else from the package root): `demo` tells the
 * first one's story, and a scenario command's help without a directory lists
 * their input flags.
 */
export const BUILT_IN_SCENARIOS: readonly [string, ...string[]] = ['scenarios/claims-triage', 'scenarios/support-desk'];
