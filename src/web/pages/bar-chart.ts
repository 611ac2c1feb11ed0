import type { Html } from '../html/html.js';
import { html } from '../html/html.js';

/** One bar: what it counts, and how many. */
export interface Bar {
  readonly label: string;
  readonly count: number;
}

/** How a chart is drawn and named. */
export interface BarChartOptions {
  /** What the chart shows, for readers who do not see it (its accessible name and title). */
  readonly title: string;
  /** What the counts add up to, for the share beside each count; default their sum. */
  readonly total?: number;
}

const ROW = 22;
const BAR = 14;
const LABEL_WIDTH = 150;
const BAR_WIDTH = 360;
const COUNT_WIDTH = 110;

/**
 * Counts as a horizontal bar chart in inline SVG, one row per bar: its label,
 * a bar whose `width` is its count against the largest, and the count with its
 * share as text, so nothing is told by length or colour alone. Sizes are
 * attributes and colours come from the stylesheet (`.bars`): the pages run
 * under a policy that forbids inline styles. Labels are escaped like any text.
 */
export function barChart(bars: readonly Bar[], options: BarChartOptions): Html {
  const total = options.total ?? bars.reduce((sum, bar) => sum + bar.count, 0);
  const largest = Math.max(0, ...bars.map((bar) => bar.count));
  const width = LABEL_WIDTH + BAR_WIDTH + COUNT_WIDTH;
  const height = bars.length * ROW;
  const rows = bars.map((bar, i) => {
    const y = i * ROW;
    const length = largest === 0 ? 0 : round((bar.count / largest) * BAR_WIDTH);
    const share = total === 0 ? '' : ` (${((100 * bar.count) / total).toFixed(1)}%)`;
    const middle = y + ROW / 2 + 4;
    return html`<g class="bar" data-bar="${bar.label}" data-count="${bar.count}">
      <text class="bar-label" x="${LABEL_WIDTH - 8}" y="${middle}" text-anchor="end">${bar.label}</text>
      <rect x="${LABEL_WIDTH}" y="${y + (ROW - BAR) / 2}" width="${length}" height="${BAR}" rx="2"></rect>
      <text class="bar-count" x="${LABEL_WIDTH + length + 6}" y="${middle}">${bar.count}${share}</text>
    </g>`;
  });
  return html`<svg class="bars" role="img" aria-label="${options.title}" width="${width}" height="${height}"
    viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg"><title>${options.title}</title>${rows}</svg>`;
}

const round = (value: number): number => Math.round(value * 10) / 10;
