import { Option } from '@commander-js/extra-typings';
import { assertRunId, assertWorldDate } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { requireListingInstant } from '../../time/index.js';

// The option's own value parsers: each throws a `USAGE` error naming the flag and what it takes, which commander
// passes on as it is (it rewords only its own InvalidArgumentError).

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

/** An option whose value is a whole number from `min` to `max`. */
export function integerOption<const Usage extends string>(flags: Usage, description: string, min: number, max: number) {
  const option = new Option(flags, description);
  return option.argParser((text: string): number => {
    const value = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new ForkpointError(
        'USAGE',
        `${option.long ?? option.name()} must be a whole number from ${min} to ${max}, got "${text}"`,
      );
    }
    return value;
  });
}

/** An option whose value is a world date, `YYYY-MM-DD`, a real calendar day. */
export function dateOption<const Usage extends string>(flags: Usage, description: string) {
  return new Option(flags, description).argParser((text: string): string => {
    assertWorldDate(text);
    return text;
  });
}

/** An option whose value is a run id. */
export function runIdOption<const Usage extends string>(flags: Usage, description: string) {
  return new Option(flags, description).argParser(runIdValue);
}

/** A run id given as an argument or an option value, checked. */
export function runIdValue(text: string): string {
  assertRunId(text);
  return text;
}

/** An ISO 8601 timestamp, as `--now` takes it. */
export function timestampValue(flag: string, example: string) {
  return (text: string): Date => {
    const value = new Date(text);
    if (!TIMESTAMP.test(text) || Number.isNaN(value.getTime()))
      throw new ForkpointError('USAGE', `${flag} must be an ISO 8601 timestamp such as ${example}, got "${text}"`);
    return value;
  };
}

/**
 * A bound of a period, as `--since` and `--until` take it: a date
 * (YYYY-MM-DD, its midnight UTC) or an ISO 8601 timestamp, in the UTC ISO
 * form runs are stamped in. A malformed one is USAGE.
 */
export function periodBoundValue(flag: string) {
  return (text: string): string => requireListingInstant(text, flag);
}
