export { REPORT_CHECKPOINT_LIMIT, readReportContents } from './report-contents.js';
export type { ReportContents } from './report-contents.js';
export { renderReport } from './render-report.js';
