export { checkStrictReplay, type StrictReplayCheck } from './check-strict-replay.js';
export { describeCassettes, type DescribeCassettesOptions } from './describe-cassettes.js';
export { forkpointMatchers, type ForkpointMatchers } from './matchers.js';
export { readFixture } from './read-fixture.js';
export { describeStoreConformance } from './store-conformance.js';
export type { StoreFactory, StoreSuite } from './store-suite.js';
export { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
