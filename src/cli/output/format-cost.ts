import type { RunView, StepView } from '../../engine/index.js';
import type { CostPart, RunCost, TokenCounts } from '../../pricing/index.js';
import type { Column, Style } from '../../text/index.js';
import { table } from '../../text/index.js';

/** US dollars as outputs print them: six decimals, since a cheap model's step costs millionths; `?` when unknown. */
export function formatUsd(usd: number | null): string {
  return usd === null ? '?' : usd.toFixed(6);
}

const count = (tokens: number): string => tokens.toLocaleString('en-US');

/** One line of the cost table: a model step, or a part of the run's cost. */
interface CostRow {
  readonly step: string;
  readonly call: string;
  readonly from: string;
  readonly model: string;
  readonly tokens: TokenCounts;
  readonly usd: number | null;
}

const COLUMNS: readonly Column<CostRow>[] = [
  { header: 'step', align: 'right', cell: (row) => row.step },
  { header: 'call', cell: (row) => row.call },
  { header: 'from', cell: (row) => row.from },
  { header: 'model', cell: (row) => row.model },
  { header: 'input', align: 'right', cell: (row) => count(row.tokens.input) },
  { header: 'cache read', align: 'right', cell: (row) => count(row.tokens.cacheRead) },
  { header: 'cache write', align: 'right', cell: (row) => count(row.tokens.cacheWrite) },
  { header: 'output', align: 'right', cell: (row) => count(row.tokens.output) },
  { header: 'reasoning', align: 'right', cell: (row) => count(row.tokens.reasoning) },
  { header: 'USD', align: 'right', cell: (row) => formatUsd(row.usd) },
];

const steps = (n: number): string => `${n} step${n === 1 ? '' : 's'}`;
const partRow = (name: string, from: string, part: CostPart): CostRow => ({
  step: '',
  call: name,
  from,
  model: steps(part.steps),
  tokens: part.tokens,
  usd: part.usd,
});

/** Which tables priced a run, in words. */
export function pricedBy(cost: Pick<RunCost, 'prices'>): string {
  return cost.prices.length === 0 ? 'no price table' : cost.prices.join(', ');
}

/**
 * What `show` prints of a run's cost: every model step's tokens and US dollars,
 * then what the run paid (its live steps), what it avoided (recorded steps a
 * replay answered from its cassette) and what it inherited (a fork's steps
 * from its parent), and the models nobody priced.
 */
export function formatRunCost(run: Pick<RunView, 'steps' | 'cost' | 'parent'>, style: Style): string[] {
  const { cost } = run;
  if (cost === null)
    return [style.dim('cost: unknown (the run ended before forkpoint kept token totals, and its steps have expired)')];
  const byStep = new Map<number, StepView>(run.steps.map((step) => [step.step, step]));
  const rows: CostRow[] = cost.steps.map((each) => {
    const step = byStep.get(each.step);
    return {
      step: String(each.step),
      call: step === undefined ? 'model' : `${step.kind}#${step.index}`,
      from: step?.provenance ?? '',
      model: each.model,
      tokens: each.tokens,
      usd: each.usd,
    };
  });
  rows.push(partRow('paid', 'live', cost.paid));
  if (cost.avoided.steps > 0) rows.push(partRow('avoided', 'recorded', cost.avoided));
  if (cost.inherited !== null && cost.inherited.steps > 0)
    rows.push(partRow('inherited', run.parent === null ? 'inherited' : `from ${run.parent.runId}`, cost.inherited));
  const notes = [
    ...(cost.inherited === null && run.parent !== null
      ? [`inherited from ${run.parent.runId}: not known here (the fork's steps have expired)`]
      : []),
    ...(cost.unpriced.length === 0
      ? []
      : [`no price for ${cost.unpriced.join(', ')}: their cost is unknown (?), not 0; price them with --prices FILE`]),
  ];
  return [
    `${style.bold('cost')} in USD, priced by ${pricedBy(cost)}`,
    ...table(rows, COLUMNS, style, { indent: '  ' }),
    ...notes.map((note) => style.yellow(note)),
  ];
}

/**
 * A run's cost in one line, as `replay` and `fork` end with it: what it paid,
 * and what it avoided (a replay) or inherited (a fork) where it did.
 */
export function formatCostLine(run: Pick<RunView, 'cost' | 'parent'>, style: Style): string {
  const { cost } = run;
  if (cost === null) return style.dim('cost: unknown');
  const model = (part: CostPart, from: string): string =>
    `${part.steps} ${from} model step${part.steps === 1 ? '' : 's'}`;
  const parts = [`paid ${formatUsd(cost.paid.usd)} USD (${model(cost.paid, 'live')})`];
  if (cost.avoided.steps > 0)
    parts.push(`avoided ${formatUsd(cost.avoided.usd)} (${model(cost.avoided, 'recorded')}, not paid again)`);
  if (cost.inherited !== null && cost.inherited.steps > 0)
    parts.push(
      `inherited ${formatUsd(cost.inherited.usd)} (${model(cost.inherited, 'inherited')} of ${run.parent?.runId ?? 'its parent'})`,
    );
  const unpriced = cost.unpriced.length === 0 ? '' : style.yellow(` · no price for ${cost.unpriced.join(', ')}`);
  return `cost: ${parts.join('; ')}${unpriced}`;
}
