import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { StepView } from '../../src/engine/index.js';
import { stepTable, streamingStepTable } from '../../src/text/step-table.js';
import { styleFor } from '../../src/text/style.js';
import { summarizerOf } from '../../src/text/summarizer.js';
import type { Column } from '../../src/text/table.js';
import { table } from '../../src/text/table.js';

const plain = styleFor({ isTTY: false }, {});
const coloured = styleFor({ isTTY: true }, {});

interface Row {
  readonly name: string;
  readonly count: number;
}
const COLUMNS: Column<Row>[] = [
  { header: 'name', cell: (row) => row.name },
  { header: 'count', align: 'right', cell: (row) => String(row.count) },
  { header: 'note', cell: (row) => (row.count > 1 ? 'many' : 'one') },
];

const step = (kind: string, index: number, provenance: StepView['provenance'] = 'live'): StepView => ({
  step: index + 1,
  kind,
  index,
  requestHash: '0123456789abcdef',
  provenance,
  attempt: 1,
  sideEffect: false,
  request: {},
  response: { output: { ok: true }, isError: false },
});

describe('table', () => {
  it('makes each column as wide as its widest cell or header, numbers right-aligned, no trailing spaces', () => {
    const lines = table(
      [
        { name: 'a', count: 1 },
        { name: 'a-much-longer-name', count: 12345 },
      ],
      COLUMNS,
      plain,
    );
    expect(lines).toEqual([
      'name                count  note',
      'a                       1  one',
      'a-much-longer-name  12345  many',
    ]);
  });

  it('leaves the header out, and indents every line, when asked', () => {
    expect(table([{ name: 'x', count: 2 }], COLUMNS, plain, { header: false, indent: '  ' })).toEqual(['  x  2  many']);
  });

  it('cuts a cell past its column’s maxWidth with an ellipsis', () => {
    const columns: Column<Row>[] = [{ header: 'name', maxWidth: 6, cell: (row) => row.name }, COLUMNS[1]!];
    expect(table([{ name: 'abcdefghij', count: 1 }], columns, plain)).toEqual(['name    count', 'abcde…      1']);
  });

  it('counts an emoji two columns wide, as a terminal draws it, so the columns after a person’s ✋ stay in line', () => {
    const lines = table(
      [
        { name: '✋ human', count: 1 },
        { name: 'live', count: 22 },
      ],
      COLUMNS,
      plain,
    );
    expect(lines).toEqual(['name      count  note', '✋ human      1  one', 'live         22  many']);
    const columns: Column<Row>[] = [{ header: 'name', maxWidth: 4, cell: (row) => row.name }, COLUMNS[1]!];
    expect(table([{ name: '✋ human', count: 1 }], columns, plain)).toEqual(['name  count', '✋ …      1']);
  });

  it('pads by the text, not by its colour codes, so coloured cells stay in line', () => {
    const columns: Column<Row>[] = [
      { header: 'name', cell: (row) => ({ text: row.name, paint: coloured.red }) },
      COLUMNS[1]!,
    ];
    const lines = table(
      [
        { name: 'ab', count: 1 },
        { name: 'abcd', count: 22 },
      ],
      columns,
      coloured,
    );
    const visible = lines.map((line) => stripVTControlCharacters(line));
    expect(visible).toEqual(['name  count', 'ab        1', 'abcd     22']);
    expect(lines[1]).toContain('\u001b[31mab\u001b[39m');
  });
});

describe('step tables', () => {
  it('widen the call column for a long tool name instead of pushing the next column out of line', () => {
    const lines = stepTable(
      { steps: [step('model', 0), step('reconcile_ledger_entries_for_quarter', 0), step('model', 1)], resumes: [] },
      summarizerOf(),
      plain,
    );
    const starts = lines.map((line) => line.indexOf(line.includes('from') ? 'from' : 'live'));
    expect(new Set(starts).size).toBe(1);
    expect(lines[2]).toMatch(/^ {5}1 {2}reconcile_ledger_entries_for_quarter#0 {2}live {2}0123456789abcdef {2}/);
  });

  it('fit a streamed table to the longest call the build can make, before any step arrives', () => {
    const streaming = streamingStepTable(['fetch', 'a_tool_with_a_very_long_name'], summarizerOf(), plain);
    const lines = [
      streaming.header,
      streaming.line(step('fetch', 0)),
      streaming.line(step('a_tool_with_a_very_long_name', 12)),
    ];
    const requestAt = lines.map((line) => line.indexOf(line.includes('request') ? 'request' : '0123456789abcdef'));
    expect(new Set(requestAt).size).toBe(1);
  });
});
