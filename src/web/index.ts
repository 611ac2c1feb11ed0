export {
  checkpointAfter,
  checkpointDocument,
  checkpointDocumentOf,
  compareDocument,
  runDocument,
  stepSummaryIn,
  treeDocument,
} from './data/index.js';
export type { CheckpointDocument, TreeDocument } from './data/index.js';
export { startUiServer } from './server/ui-server.js';
export type { UiServer } from './server/ui-server.js';
export { DEFAULT_UI_PORT } from './server/ui-server-options.js';
export type { UiServerOptions } from './server/ui-server-options.js';
export type { RunWords } from './pages/run-words.js';
export { REPORT_CHECKPOINT_LIMIT, readReportContents, renderReport } from './report/index.js';
export type { ReportContents } from './report/index.js';
