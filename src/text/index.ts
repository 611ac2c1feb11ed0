/**
 * How runs read as text: the step table, the headline every run's output
 * starts with, one-line summaries of steps, column-aligned tables and their
 * colours. The CLI prints with them, and forkpoint/testing's failure messages
 * print a trajectory as `forkpoint show` does.
 */
export { formatFirewall, formatInput, headline } from './format-headline.js';
export { provenanceWords, stepTable, streamingStepTable, type StreamingStepTable } from './step-table.js';
export { styleFor, type Style } from './style.js';
export { oneLine, summarizerOf, type Summarizer } from './summarizer.js';
export {
  fitWidths,
  headerLine,
  rowLine,
  table,
  tableLine,
  type Cell,
  type Column,
  type TableOptions,
  type Widths,
} from './table.js';
export { answerWords, pendingApprovalLines, pendingCallWords, type WaitingRun } from './approval-words.js';
