import type {
  BranchCost,
  ComparedSide,
  ComparedStep,
  CostComparison,
  FirstDivergence,
  RunComparison,
} from '../../analysis/index.js';
import { answerWords } from '../../text/index.js';
import { formatUsd, pricedBy } from './format-cost.js';
import { formatEnding } from './format-ending.js';
import type { Column, Style, Summarizer } from '../../text/index.js';
import { table } from '../../text/index.js';

// Side by side, each run's column holds at most this much of a step.
const WIDTH = 46;

/** Two runs side by side, their first divergence and their outcomes. */
export function formatComparison(comparison: RunComparison, style: Style, summarizer: Summarizer): string {
  const { a, b, firstDivergence } = comparison;
  const columns: Column<ComparedStep>[] = [
    { header: 'step', align: 'right', cell: (step) => String(step.step) },
    // The mark of a step where the runs differ, right after its number.
    { header: '', separator: '', minWidth: 1, cell: (step) => (step.same ? ' ' : { text: '≠', paint: style.yellow }) },
    { header: `a: ${a.runId}`, separator: ' ', maxWidth: WIDTH, cell: (step) => cell(step.a) },
    { header: `b: ${b.runId}`, maxWidth: WIDTH, cell: (step) => cell(step.b) },
  ];
  return [
    `${style.bold('compare')} · run ${a.runId} (${a.mode}) vs run ${b.runId} (${b.mode})`,
    ...table(comparison.steps, columns, style),
    firstDivergence === null
      ? 'first divergence: none (the runs observed the same things)'
      : `first divergence: ${divergenceWords(firstDivergence, comparison)}`,
    `a: ${formatEnding(a, style, summarizer)}`,
    `b: ${formatEnding(b, style, summarizer)}`,
    ...formatCostComparison(comparison, style),
  ].join('\n');
}

/** One row of the cost comparison: a branch, or the difference. */
interface CostRow {
  readonly name: string;
  readonly paid: string;
  readonly avoided: string;
  readonly inherited: string;
  readonly trajectory: string;
}

const signed = (usd: number | null): string => (usd === null || usd < 0 ? formatUsd(usd) : `+${formatUsd(usd)}`);
const branchRow = (name: string, cost: BranchCost): CostRow => ({
  name,
  paid: formatUsd(cost.paidUsd),
  avoided: formatUsd(cost.avoidedUsd),
  inherited: formatUsd(cost.inheritedUsd),
  trajectory: formatUsd(cost.trajectoryUsd),
});

/**
 * What each branch cost and the difference: what it paid (live steps), avoided
 * (recorded ones), inherited (a fork's parent's), and its trajectory's model
 * steps together, whoever paid for them.
 */
function formatCostComparison(comparison: RunComparison, style: Style): string[] {
  const cost: CostComparison | null = comparison.cost;
  if (cost === null) return [];
  const rows: CostRow[] = [
    branchRow('a', cost.a),
    branchRow('b', cost.b),
    {
      name: 'b - a',
      paid: signed(cost.difference.paidUsd),
      avoided: '',
      inherited: '',
      trajectory: signed(cost.difference.trajectoryUsd),
    },
  ];
  const columns: Column<CostRow>[] = [
    { header: 'cost in USD', cell: (row) => row.name },
    { header: 'paid', align: 'right', cell: (row) => row.paid },
    { header: 'avoided', align: 'right', cell: (row) => row.avoided },
    { header: 'inherited', align: 'right', cell: (row) => row.inherited },
    { header: 'trajectory', align: 'right', cell: (row) => row.trajectory },
  ];
  const sources = [comparison.a.cost, comparison.b.cost].flatMap((side) => (side == null ? [] : [pricedBy(side)]));
  return [...table(rows, columns, style), style.dim(`priced by ${[...new Set(sources)].join('; ')}`)];
}

function cell(side: ComparedSide | null): string {
  if (side === null) return '-';
  const from = side.sideEffect ? 'live side-effect' : side.provenance === 'human' ? '✋ human' : side.provenance;
  // A person's answer: what they decided about which call says more than the hash of the question.
  if (side.approval !== undefined)
    return `${side.kind}#${side.index} ${from} ${answerWords(side.approval, side.approval.tool ?? undefined, false)}`;
  return `${side.kind}#${side.index} ${from} ${side.requestHash.slice(0, 8)} ${side.summary}`;
}

/**
 * Where two runs first part, in words: the step and call, and whether the
 * request or only the response differed; at a person's answer, the two
 * answers (`step 6, approval#0: approved -> rejected`), since a person said
 * otherwise there, not a tool.
 */
function divergenceWords(first: FirstDivergence, comparison: RunComparison): string {
  const at = `step ${first.step}, ${first.kind}#${first.index}`;
  if (first.approval === undefined) return `${at}, on the ${first.on}`;
  const { a, b } = first.approval;
  const step = comparison.steps.find((each) => each.step === first.step);
  const about = step?.a?.approval?.tool ?? step?.b?.approval?.tool ?? null;
  const decisions =
    a === b ? `${a ?? 'no answer'} on both, answered otherwise` : `${a ?? 'no answer'} -> ${b ?? 'no answer'}`;
  return `${at}: ${decisions} (a person's answer${about === null ? '' : ` about ${about}`}, not a tool's output)`;
}
