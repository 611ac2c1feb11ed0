import { ForkpointError } from '../errors/index.js';
import type { RetentionPeriods } from '../store/index.js';

/** The most hours or days a period may be set to: a century, far past any policy, short of overflowing a date. */
const LONGEST = { hours: 100 * 366 * 24, days: 100 * 366 };

/** Checks a change of retention periods: each a positive whole number, or `USAGE` naming it. */
export function checkedPeriods(change: Partial<RetentionPeriods>): Partial<RetentionPeriods> {
  const check = (name: string, value: number | undefined, longest: number): void => {
    if (value === undefined) return;
    if (!Number.isInteger(value) || value < 1 || value > longest)
      throw new ForkpointError('USAGE', `${name} must be a whole number from 1 to ${longest}, got ${String(value)}`);
  };
  check('the full-tier period (hours)', change.fullRetentionHours, LONGEST.hours);
  check('the structural period (days)', change.structuralRetentionDays, LONGEST.days);
  return change;
}
