import type { AnsweredApproval, StepView } from '../read/index.js';
import { answeredApprovalsOf } from '../read/index.js';
import { answerWords } from './approval-words.js';
import { oneLine } from './summarizer.js';
import type { Style } from './style.js';
import type { Summarizer } from './summarizer.js';
import type { Column, Widths } from './table.js';
import { fitWidths, headerLine, rowLine, table } from './table.js';

const INDENT = '  ';

/**
 * A step's source in words: its provenance, and `live side effect` where a
 * tool that is not read-only was called for real past a recording; a
 * person's answer has the hand the web view gives it, so it reads as no tool's.
 */
export function provenanceWords(step: Pick<StepView, 'provenance' | 'sideEffect'>): string {
  if (step.sideEffect) return 'live side effect';
  return step.provenance === 'human' ? '✋ human' : step.provenance;
}

/**
 * The columns of a run's step table; a resumed run's steps say which attempt
 * wrote them. `approvals` are the run's answered approvals (see
 * `answeredApprovalsOf`): each reads as the person's answer about the call it
 * names, `refund#0`, rather than as a tool's output.
 */
function stepColumns(
  attempts: boolean,
  summarizer: Summarizer,
  style: Style,
  approvals: ReadonlyMap<number, AnsweredApproval> = new Map(),
): Column<StepView>[] {
  const said = (step: StepView): string => {
    const approval = approvals.get(step.step);
    return approval === undefined
      ? summarizer.step(step)
      : oneLine(answerWords(approval, `${approval.tool}#${approval.callIndex}`));
  };
  return [
    { header: 'step', align: 'right', cell: (step) => String(step.step) },
    ...(attempts
      ? [{ header: 'attempt', align: 'right' as const, cell: (step: StepView) => String(step.attempt) }]
      : []),
    { header: 'call', cell: (step) => `${step.kind}#${step.index}` },
    {
      header: 'from',
      cell: (step) => (step.sideEffect ? { text: provenanceWords(step), paint: style.red } : provenanceWords(step)),
    },
    { header: 'request', cell: (step) => step.requestHash },
    { header: 'response', cell: said },
  ];
}

/** A run's steps as a table, each column as wide as its widest cell. */
export function stepTable(
  run: { readonly steps: readonly StepView[]; readonly resumes: readonly unknown[] },
  summarizer: Summarizer,
  style: Style,
): string[] {
  const approvals = answeredApprovalsOf(run.steps);
  return table(run.steps, stepColumns(run.resumes.length > 0, summarizer, style, approvals), style, {
    indent: INDENT,
  });
}

/** A step table printed as its run goes, a step at a time: its widths are fixed before the first step. */
export interface StreamingStepTable {
  readonly header: string;
  line(step: StepView): string;
}

/**
 * The step table of a run still being made. Its call column is as wide as the
 * longest call the build can make (a tool's name, with a two-digit index), so
 * that a long tool name widens it rather than pushing the columns after it
 * out of line.
 */
export function streamingStepTable(kinds: readonly string[], summarizer: Summarizer, style: Style): StreamingStepTable {
  const base = stepColumns(false, summarizer, style);
  const callWidth = Math.max(...['model', ...kinds].map((kind) => `${kind}#00`.length));
  const columns = base.map((column) =>
    column.header === 'call'
      ? { ...column, minWidth: callWidth }
      : column.header === 'from'
        ? { ...column, minWidth: 'simulated'.length }
        : column.header === 'request'
          ? { ...column, minWidth: 16 }
          : column,
  );
  const widths: Widths = fitWidths(columns, []);
  return {
    header: headerLine(columns, widths, style, INDENT),
    line: (step) => rowLine(step, columns, widths, INDENT),
  };
}
