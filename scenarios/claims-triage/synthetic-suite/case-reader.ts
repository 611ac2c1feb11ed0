import type { JsonArray, JsonObject, JsonValue } from '../../../src/index.js';
import { ForkpointError, isJsonObject } from '../../../src/index.js';

/** Bounds and shape of a number field. */
export interface NumberRule {
  readonly min?: number;
  readonly max?: number;
  readonly integer?: boolean;
}

/**
 * Typed reads of one case file's fields. Each read names the file and the
 * field's path in its `INPUT_INVALID` error and says what was expected, so a
 * case author can fix the file from the message alone.
 */
export interface CaseReader {
  readonly file: string;
  /** An object with every `required` key, and no keys outside `required` and `optional` (a typo is not ignored). */
  object(
    value: JsonValue | undefined,
    path: string,
    required: readonly string[],
    optional?: readonly string[],
  ): JsonObject;
  /** A non-empty string, matching `pattern` when given (`hint` says what the pattern means). */
  string(
    value: JsonValue | undefined,
    path: string,
    pattern?: { readonly regex: RegExp; readonly hint: string },
  ): string;
  number(value: JsonValue | undefined, path: string, rule?: NumberRule): number;
  /** A calendar date written `YYYY-MM-DD`. */
  date(value: JsonValue | undefined, path: string): string;
  oneOf<T extends string>(value: JsonValue | undefined, path: string, options: readonly T[]): T;
  /** An array of at least `minLength` entries. */
  array(value: JsonValue | undefined, path: string, minLength?: number): JsonArray;
  /** Throws the file's `INPUT_INVALID` error for a problem at `path` (`''`: the case as a whole). */
  fail(path: string, problem: string): never;
}

/** A {@link CaseReader} over the case read from `file`. */
export function caseReader(file: string): CaseReader {
  const fail = (path: string, problem: string): never => {
    throw new ForkpointError('INPUT_INVALID', `${file}: ${path === '' ? 'the case' : path} ${problem}`);
  };
  // Missing and wrong are told apart: "is missing" sends the author looking for a typo in the key.
  const expect = (value: JsonValue | undefined, path: string, wanted: string): never =>
    value === undefined
      ? fail(path, `is missing: expected ${wanted}`)
      : fail(path, `must be ${wanted}, got ${preview(value)}`);

  return {
    file,
    fail,
    object(value, path, required, optional = []) {
      if (!isJsonObject(value))
        return expect(value, path, required.length === 0 ? 'an object' : `an object with ${required.join(', ')}`);
      const known = new Set([...required, ...optional]);
      const unknown = Object.keys(value).filter((key) => !known.has(key));
      if (unknown.length > 0)
        fail(path, `has unknown field ${unknown.join(', ')}: the fields are ${[...known].join(', ')}`);
      for (const key of required) if (value[key] === undefined) fail(join(path, key), 'is missing: it is required');
      return value;
    },
    string(value, path, pattern) {
      const wanted = pattern === undefined ? 'a non-empty string' : `a string like ${pattern.hint}`;
      if (typeof value !== 'string' || value.trim() === '') return expect(value, path, wanted);
      if (pattern !== undefined && !pattern.regex.test(value)) return expect(value, path, wanted);
      return value;
    },
    number(value, path, rule = {}) {
      const wanted = describeNumber(rule);
      if (typeof value !== 'number' || !Number.isFinite(value)) return expect(value, path, wanted);
      if (rule.integer === true && !Number.isInteger(value)) return expect(value, path, wanted);
      if ((rule.min !== undefined && value < rule.min) || (rule.max !== undefined && value > rule.max))
        return expect(value, path, wanted);
      return value;
    },
    date(value, path) {
      if (typeof value !== 'string' || !isCalendarDate(value))
        return expect(value, path, 'a calendar date written YYYY-MM-DD');
      return value;
    },
    oneOf<T extends string>(value: JsonValue | undefined, path: string, options: readonly T[]): T {
      const found = options.find((option) => option === value);
      return found ?? expect(value, path, `one of ${options.join(', ')}`);
    },
    array(value, path, minLength = 0) {
      const wanted =
        minLength === 0 ? 'an array' : `an array of at least ${minLength} ${minLength === 1 ? 'entry' : 'entries'}`;
      if (!isArray(value) || value.length < minLength) return expect(value, path, wanted);
      return value;
    },
  };
}

/** The path of field `key` under `path` (`claim` + `peril` gives `claim.peril`; `''` is the case itself). */
export function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

function describeNumber(rule: NumberRule): string {
  const kind = rule.integer === true ? 'an integer' : 'a number';
  if (rule.min !== undefined && rule.max !== undefined) return `${kind} from ${rule.min} to ${rule.max}`;
  if (rule.min !== undefined) return `${kind} of at least ${rule.min}`;
  if (rule.max !== undefined) return `${kind} of at most ${rule.max}`;
  return kind;
}

// Checks the calendar, not only the shape: 2026-02-30 is refused. Year 0000 is allowed, as timelines start there.
function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC, which maps years 0-99 onto 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function preview(value: JsonValue): string {
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

// Array.isArray narrows a JsonValue to any[]; this keeps it a JsonArray.
const isArray = (value: JsonValue | undefined): value is JsonArray => Array.isArray(value);
