export { checkStrictReplay, type StrictReplayCheck } from './check-strict-replay.js';
export { describeCassettes, type DescribeCassettesOptions } from './describe-cassettes.js';
export { forkpointMatchers, type ForkpointMatchers } from './matchers.js';
export { readFixture } from './read-fixture.js';
export {
  SAMPLE_OWNER_TOKEN,
  describeStoreConformance,
  sampleRun,
  sampleStep,
  type StoreFactory,
} from './store-conformance.js';
