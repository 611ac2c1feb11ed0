// The bench's output: a table of figures with their targets, then one JSON line.
import { cpus, loadavg, totalmem } from 'node:os';

/** The machine the figures were measured on, and how busy it was when the bench started (other work skews them). */
export function machine() {
  const cores = cpus();
  const load = loadavg()[0].toFixed(2);
  return `${cores.length} x ${cores[0]?.model.trim() ?? 'unknown cpu'}, node ${process.version}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory; load average ${load} at start`;
}

/** A figure with a target: `met` says whether the value meets it. */
export const targeted = (figure, value, target, met) => ({ figure, value, target, verdict: met ? 'met' : 'MISSED' });
/** A figure printed for reading the others, with no target. */
export const informative = (figure, value) => ({ figure, value, target: '', verdict: '' });
/** A heading row between groups of figures. */
export const heading = (title) => ({ heading: title });

/** Aligns rows into columns: figure, value, target, verdict. */
export function formatTable(rows) {
  const columns = ['figure', 'value', 'target', 'verdict'];
  const body = rows.filter((row) => !row.heading);
  const widths = columns.map((column) => Math.max(column.length, ...body.map((row) => String(row[column]).length)));
  const line = (cells) =>
    cells
      .map((cell, i) => String(cell).padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [
    line(columns),
    ...rows.map((row) => (row.heading ? `-- ${row.heading}` : line(columns.map((column) => row[column])))),
  ].join('\n');
}

/** `value` with `digits` decimals, as a number (for the JSON line). */
export const fixed = (value, digits) => Number(value.toFixed(digits));
