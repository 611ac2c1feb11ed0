export {
  checkpointAfter,
  checkpointDocument,
  checkpointDocumentOf,
  compareDocument,
  runDocument,
  stepSummaryIn,
  treeDocument,
} from './run-documents.js';
export type { CheckpointDocument, TreeDocument } from './run-documents.js';
export { recentLineages } from './recent-lineages.js';
export type { RecentLineage } from './recent-lineages.js';
export { checkpointViewOf } from './checkpoint-view.js';
