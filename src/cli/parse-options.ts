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
  db: {
    type: 'string',
    value: 'PATH',
    description: 'the database (default checkpoints/forkpoint.db, or $FORKPOINT_DB)',
  },
  synchronous: {
    type: 'string',
    value: 'normal|full',
    description: 'SQLite durability: normal (default) or full (survives power loss, slower)',
  },
  now: {
    type: 'string',
    value: 'TIMESTAMP',
    description: 'the clock, ISO 8601 (default: now): stamps runs and decides what has expired',
  },
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
      args: withNegativeValues(args, specs),
      options: Object.fromEntries(
        Object.entries(specs).map(([name, spec]) => [
          name,
          spec.short === undefined ? { type: spec.type } : { type: spec.type, short: spec.short },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (error) {
    // parseArgs explains itself over several lines; the first says what is wrong.
    const message =
      error instanceof Error
        ? error.message
            .replace(/\. To specify a positional.*$/s, '')
            .split('\n')[0]!
            .replace(/\.$/, '')
        : String(error);
    throw new ForkpointError('USAGE', `${message}; see --help`, { cause: error });
  }
}

// node's parseArgs takes `--at-step -1` for a missing value followed by option -1; a value that reads as a
// negative number (`-1`, `-5`, `-0.5`) is the option's own value, as if written `--at-step=-1`.
function withNegativeValues(args: readonly string[], specs: Readonly<Record<string, OptionSpec>>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    if (name !== undefined && specs[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
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
