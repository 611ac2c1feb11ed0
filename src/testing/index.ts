export { describeStoreConformance, sampleRun, sampleStep, type StoreFactory } from './store-conformance.js';
