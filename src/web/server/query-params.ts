import { assertRunId } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { listingInstantOf, requireListingInstant } from '../../time/index.js';

/** A query's parameter as text; undefined when absent or empty (an empty form field means "any"). */
export function textParam(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value === '' ? undefined : value;
}

/** A run id from a path or a query, checked as the CLI checks one. */
export function runIdParam(value: string | undefined, name: string): string {
  if (value === undefined) throw new ForkpointError('USAGE', `the page needs ${name}, a run id such as 9b40c1d5`);
  assertRunId(value);
  return value;
}

/** A whole number parameter within bounds, or undefined when absent. */
export function integerParam(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const text = textParam(query, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max)
    throw new ForkpointError('USAGE', `${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}

/** One of several words, or undefined when absent. */
export function choiceParam<T extends string>(
  query: URLSearchParams,
  name: string,
  choices: readonly T[],
): T | undefined {
  const text = textParam(query, name);
  if (text === undefined) return undefined;
  const found = choices.find((choice) => choice === text);
  if (found === undefined)
    throw new ForkpointError('USAGE', `${name} must be one of ${choices.join(', ')}, got "${text}"`);
  return found;
}

/** A date or ISO 8601 timestamp, as the first instant it names (UTC); undefined when absent. */
export function instantParam(query: URLSearchParams, name: string): string | undefined {
  const text = textParam(query, name);
  if (text === undefined) return undefined;
  const instant = listingInstantOf(text);
  if (instant === undefined)
    throw new ForkpointError('USAGE', `${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp, got "${text}"`);
  return instant;
}

/**
 * The start of a period, as `similar --since` and `classes --since` read it:
 * a date or ISO 8601 timestamp, as the first instant it names (UTC); a
 * malformed one is refused with the line those commands print.
 */
export function periodParam(query: URLSearchParams, name: string): string | undefined {
  const text = textParam(query, name);
  return text === undefined ? undefined : requireListingInstant(text, `--${name}`);
}
