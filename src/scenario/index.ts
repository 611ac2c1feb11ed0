export { buildOf, loadScenario, locateScenario, scenarioReference } from './load-scenario.js';
export { defineScenario, type InputFlag, type Scenario } from './scenario.js';
export type { ScenarioStory, StoryApproval, StoryIncident, StoryPeriod, StoryText } from './story.js';
export type { Summarize } from './summarize.js';
export type { WorldOptions } from './world-options.js';
export type { SyntheticCase, SyntheticRunResult, SyntheticSupport, SyntheticVerdict } from './synthetic.js';
export { loadSyntheticCases, syntheticSupportOf } from './load-synthetic-cases.js';
