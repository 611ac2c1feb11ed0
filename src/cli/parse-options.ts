import { parseArgs } from 'node:util';
import { ForkpointError } from '../errors/index.js';

/** A command's option: a string value or a boolean switch. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly description: string;
  /** The placeholder shown in help, e.g. `DATE`. */
  readonly value?: string;
  /** A one-letter alias, e.g. `o` for `-o`. */
  readonly short?: string;
}

/** Options every command takes. */
export const COMMON_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  db: { type: 'string', value: 'PATH', description: 'the database (default checkpoints/forkpoint.db, or $FORKPOINT_DB)' },
  synchronous: { type: 'string', value: 'normal|full', description: 'SQLite durability: normal (default) or full (survives power loss, slower)' },
  now: { type: 'string', value: 'TIMESTAMP', description: 'the clock, ISO 8601 (default: now): stamps runs and decides what has expired' },
  json: { type: 'boolean', description: 'print exactly one JSON document on stdout' },
  help: { type: 'boolean', description: 'show this help' },
};

/** Parsed options and positionals. */
export interface ParsedOptions {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: readonly string[];
}

/** Parses `args` strictly against `specs`: an unknown or malformed option is a `USAGE` error. */
export function parseOptions(args: readonly string[], specs: Readonly<Record<string, OptionSpec>>): ParsedOptions {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: Object.fromEntries(
        Object.entries(specs).map(([name, spec]) => [name, spec.short === undefined ? { type: spec.type } : { type: spec.type, short: spec.short }]),
      ),
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, '') : String(error);
    throw new ForkpointError('USAGE', `${message}; see --help`, { cause: error });
  }
}

/** The string value of an option, if given. */
export function stringOption(parsed: ParsedOptions, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** An integer option within bounds, if given. */
export function integerOption(parsed: ParsedOptions, name: string, min: number, max: number): number | undefined {
  const text = stringOption(parsed, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ForkpointError('USAGE', `--${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  }
  return value;
}
