import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

/**
 * The folders of `src/`, lowest first. A folder imports only folders of a
 * lower layer: never one beside it or above it. The root (`src/index.ts`)
 * sits above them all.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors'],
  ['json', 'time'],
  ['vocabulary', 'conversation'],
  ['agent', 'world', 'payload', 'pricing'],
  ['machine', 'firewall', 'cassette', 'scenario', 'providers', 'signature'],
  ['store', 'tiers'],
  ['analysis'],
  ['fork', 'transports'],
  ['checkpoint'],
  ['driver'],
  ['read'],
  ['retention', 'text'],
  ['modes'],
  ['wrap'],
  ['engine'],
  ['workflows', 'otel'],
  ['web'],
  ['testing', 'cli', 'entries'],
];

interface SourceFile {
  readonly path: string;
  readonly folder: string;
  readonly text: string;
  readonly imports: readonly string[];
}

function sourceFiles(folder: string): SourceFile[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry): SourceFile[] => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    if (!entry.name.endsWith('.ts')) return [];
    const text = readFileSync(path, 'utf8');
    // The compiler's own pre-pass: imports and re-exports, never a string in a comment.
    const imports = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((file) => file.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(path), name.replace(/\.js$/, '.ts')));
    return [{ path, folder: folderOf(path), text, imports }];
  });
}

const folderOf = (path: string): string => {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? parts[0]! : '';
};
const layerOf = (folder: string): number => {
  if (folder === '') return LAYERS.length;
  const layer = LAYERS.findIndex((names) => names.includes(folder));
  if (layer < 0) throw new Error(`src/${folder} has no place in LAYERS: add it where its imports put it`);
  return layer;
};
const files = sourceFiles(SRC);
const MAX_LINES = 300;
// The one place a row's columns are read back as the record they were written from.
const ROW_MAPPING = join('store', 'sqlite', 'row-mapping.ts');
const shown = (path: string): string => relative(SRC, path);

describe('the layout of src/', () => {
  it('has every folder in the layer order', () => {
    for (const file of files) expect(() => layerOf(file.folder)).not.toThrow();
  });

  it('has no import going upward or sideways between folders', () => {
    const upward = new Set<string>();
    for (const file of files) {
      for (const target of file.imports) {
        const to = folderOf(target);
        if (to === file.folder) continue;
        if (layerOf(to) >= layerOf(file.folder)) upward.add(`${file.folder || '<root>'} -> ${to}`);
      }
    }
    expect([...upward].sort()).toEqual([]);
  });

  it("reaches another folder only through that folder's index", () => {
    const deep = files.flatMap((file) =>
      file.imports
        .filter((target) => folderOf(target) !== file.folder && folderOf(target) !== '')
        .filter((target) => target !== join(SRC, folderOf(target), 'index.ts'))
        .map((target) => `${shown(file.path)} -> ${shown(target)}`),
    );
    expect(deep).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const byPath = new Map(files.map((file) => [file.path, file]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const trail: string[] = [];
    const visit = (path: string): void => {
      state.set(path, 'open');
      trail.push(path);
      for (const target of byPath.get(path)?.imports ?? []) {
        if (!byPath.has(target)) continue;
        if (state.get(target) === 'open')
          cycles.push(trail.slice(trail.indexOf(target)).concat(target).map(shown).join(' -> '));
        else if (state.get(target) === undefined) visit(target);
      }
      trail.pop();
      state.set(path, 'done');
    };
    for (const file of files) if (!state.has(file.path)) visit(file.path);
    expect(cycles).toEqual([]);
  });

  it('keeps every file at 300 lines or fewer: one concept each', () => {
    const lines = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const long = files
      .filter((file) => lines(file.text) > MAX_LINES)
      .map((file) => `${shown(file.path)}: ${lines(file.text)}`);
    expect(long).toEqual([]);
  });

  it('casts through unknown only where stored rows become records', () => {
    const casting = files
      .filter((file) => shown(file.path) !== ROW_MAPPING && file.text.includes('as unknown as'))
      .map((file) => shown(file.path));
    expect(casting).toEqual([]);
  });
});
