import type { JsonValue } from '../json/index.js';

/**
 * The type skeleton of a JSON value, as text: what a failure signature keeps
 * of an observation. Strings, numbers, booleans and null become their type;
 * an object keeps its keys (sorted) and their skeletons; an array becomes the
 * set of its elements' skeletons, so that a claim with one document and one
 * with two have the same skeleton. Coarser than the structural tier's shape,
 * which keeps string lengths and array lengths: those vary between runs of
 * one class. Shaping the same value twice gives the same text.
 *
 * @example
 * typeSkeleton({ id: 'CLM-1', docs: [{ n: 1 }, { n: 2 }] }) // '{docs:[{n:number}],id:string}'
 */
export function typeSkeleton(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) {
    const items = [...new Set(value.map(typeSkeleton))].sort();
    return `[${items.join('|')}]`;
  }
  const fields = Object.entries(value)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, item]) => `${JSON.stringify(key)}:${typeSkeleton(item)}`);
  return `{${fields.join(',')}}`;
}
