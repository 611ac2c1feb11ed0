import type { Style } from './style.js';

/** A cell's text, or its text with the colour it is painted in once padded: colour never counts towards a width. */
export type Cell = string | { readonly text: string; readonly paint: (text: string) => string };

/** One column of a table. */
export interface Column<Row> {
  /** The header; omit the header row with `header: false` on the table. */
  readonly header: string;
  readonly cell: (row: Row) => Cell;
  /** Numbers read right-aligned. */
  readonly align?: 'left' | 'right';
  /** At least this wide: a table printed a row at a time knows its widths before its rows. */
  readonly minWidth?: number;
  /** At most this wide: a longer cell is cut with `…` (side-by-side columns). */
  readonly maxWidth?: number;
  /** What stands before the column (two spaces; the first column has the table's indent instead). */
  readonly separator?: string;
}

/** How a table is laid out around its columns. */
export interface TableOptions {
  /** Before every line (default none). */
  readonly indent?: string;
  /** Print the header row, dimmed (default true). */
  readonly header?: boolean;
}

/** The width of each column, fitted to the header and the rows. */
export type Widths = readonly number[];

const textOf = (cell: Cell): string => (typeof cell === 'string' ? cell : cell.text);
// A terminal draws an emoji presented as one (the hand of a person's answer, ✋) two columns wide.
const WIDE = /\p{Emoji_Presentation}/u;
const columnsOf = (character: string): number => (WIDE.test(character) ? 2 : 1);
// Widths count the columns a terminal draws: code points, so that a character outside the BMP counts once, and
// an emoji twice.
const length = (text: string): number => Array.from(text).reduce((sum, character) => sum + columnsOf(character), 0);
function cut(text: string, max: number | undefined): string {
  if (max === undefined || length(text) <= max) return text;
  let kept = '';
  let used = 0;
  for (const character of text) {
    if (used + columnsOf(character) > max - 1) break;
    kept += character;
    used += columnsOf(character);
  }
  return `${kept}…`;
}

/** Each column as wide as its widest cell (and its header), within its bounds. */
export function fitWidths<Row>(columns: readonly Column<Row>[], rows: readonly Row[], header = true): Widths {
  return columns.map((column) => {
    const cells = rows.map((row) => length(cut(textOf(column.cell(row)), column.maxWidth)));
    const widest = Math.max(column.minWidth ?? 0, header ? length(column.header) : 0, ...cells);
    return column.maxWidth === undefined ? widest : Math.min(widest, column.maxWidth);
  });
}

/** One row as a line at the given widths. The last column is not padded, so no line ends in spaces. */
export function tableLine(
  cells: readonly Cell[],
  columns: readonly Column<never>[],
  widths: Widths,
  indent = '',
): string {
  const parts = columns.map((column, i) => {
    const cell = cells[i] ?? '';
    const text = cut(textOf(cell), column.maxWidth);
    const room = ' '.repeat(Math.max(0, (widths[i] ?? 0) - length(text)));
    const painted = typeof cell === 'string' ? text : cell.paint(text);
    const last = i === columns.length - 1;
    const padded = column.align === 'right' ? `${room}${painted}` : last ? painted : `${painted}${room}`;
    return `${i === 0 ? indent : (column.separator ?? '  ')}${padded}`;
  });
  return parts.join('');
}

/** The header row at the given widths, dimmed. */
export function headerLine<Row>(columns: readonly Column<Row>[], widths: Widths, style: Style, indent = ''): string {
  return style.dim(
    tableLine(
      columns.map((column) => column.header),
      columns,
      widths,
      indent,
    ),
  );
}

/** One row of a table whose widths are known. */
export function rowLine<Row>(row: Row, columns: readonly Column<Row>[], widths: Widths, indent = ''): string {
  return tableLine(
    columns.map((column) => column.cell(row)),
    columns,
    widths,
    indent,
  );
}

/**
 * A table as lines, every column as wide as its widest cell: a long tool name
 * or build widens its column instead of pushing the next one out of line.
 */
export function table<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  style: Style,
  options: TableOptions = {},
): string[] {
  const header = options.header ?? true;
  const widths = fitWidths(columns, rows, header);
  const indent = options.indent ?? '';
  return [
    ...(header ? [headerLine(columns, widths, style, indent)] : []),
    ...rows.map((row) => rowLine(row, columns, widths, indent)),
  ];
}
