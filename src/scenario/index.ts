export { buildOf, loadScenario, locateScenario, scenarioReference } from './load-scenario.js';
export { defineScenario, type InputFlag, type Scenario, type WorldOptions } from './scenario.js';
export type { SyntheticCase, SyntheticRunResult, SyntheticSupport, SyntheticVerdict } from './synthetic.js';
export { loadSyntheticCases, syntheticSupportOf } from './load-synthetic-cases.js';
