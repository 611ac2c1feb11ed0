export { changedFields, diffJson, type FieldChange } from './diff-json.js';
export { describeDivergence, type Divergence, type DivergenceClass } from './divergence.js';
export { ReplayDivergence } from './replay-divergence.js';
