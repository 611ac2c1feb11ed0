export { checkStrictReplay, type StrictReplayCheck } from './check-strict-replay.js';
export { describeCassettes, type DescribeCassettesOptions } from './describe-cassettes.js';
export { forkpointMatchers, type ForkpointMatchers } from './matchers.js';
export { readFixture } from './read-fixture.js';
export { describeStoreConformance, type StoreFactory } from './store-conformance.js';
export { SAMPLE_OWNER_TOKEN, sampleRun, sampleStep } from './sample-records.js';
export { describeTransportConformance, type TransportFacts, type TransportSubject } from './transport-conformance.js';
export type { FindingReports } from './transport-findings-conformance.js';
export { transportFixture, type ScriptedCall, type TransportFixture } from './transport-fixture.js';
