import { ForkpointError } from '../../errors/index.js';

/** The longest period `record-batch --until` records: a year, leap day included. */
export const MAX_BATCH_DAYS = 366;

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The hour (UTC) a period batch stamps the first run of each day with. */
const FIRST_RUN_HOUR = 9;

/**
 * The days from `at` to `until` inclusive (both `YYYY-MM-DD`, already checked
 * as calendar days), in order; only `at` when there is no `until`. `USAGE`
 * when `until` comes before `at` or the period is longer than
 * {@link MAX_BATCH_DAYS}.
 */
export function batchDays(at: string, until: string | undefined): readonly string[] {
  if (until === undefined) return [at];
  const first = Date.parse(`${at}T00:00:00Z`);
  const last = Date.parse(`${until}T00:00:00Z`);
  if (last < first) throw new ForkpointError('USAGE', `--until ${until} is before --at ${at}: give a later day`);
  const count = Math.round((last - first) / DAY_MS) + 1;
  if (count > MAX_BATCH_DAYS) {
    throw new ForkpointError(
      'USAGE',
      `--at ${at} --until ${until} spans ${count} days; a batch records at most ${MAX_BATCH_DAYS}: split the period`,
    );
  }
  return Array.from({ length: count }, (_, day) => new Date(first + day * DAY_MS).toISOString().slice(0, 10));
}

/**
 * When the `position`-th of a day's `count` runs (from 0) was made, in a
 * batch that stands for a period's traffic: that day from 09:00 UTC, one
 * minute apart (closer together when a day holds more runs than minutes
 * before midnight, so that every run stays on its day). Runs are counted by
 * the day they were made, so a period's runs are made on their own days, not
 * on the day the batch ran.
 */
export function runInstantOf(day: string, position: number, count: number): Date {
  const start = Date.parse(`${day}T00:00:00Z`) + FIRST_RUN_HOUR * HOUR_MS;
  const spacing = Math.min(MINUTE_MS, Math.floor(((24 - FIRST_RUN_HOUR) * HOUR_MS) / Math.max(1, count)));
  return new Date(start + position * spacing);
}

/**
 * The clock of an engine that makes a period's runs: it reads the instant of
 * the run being made ({@link runInstantOf}), set before each one, and the
 * real time before the first. `read` is the engine's clock.
 */
export class PeriodClock {
  private instant: Date | undefined;

  /** The engine's clock: a fresh Date, so that no caller can move the instant. */
  readonly read = (): Date => (this.instant === undefined ? new Date() : new Date(this.instant.getTime()));

  /** Sets the clock to the `position`-th of a day's `count` runs, and returns that instant. */
  at(day: string, position: number, count: number): Date {
    return this.set(runInstantOf(day, position, count));
  }

  /** Sets the clock back to an instant it read before (a run's, to export it as of then). */
  set(instant: Date): Date {
    this.instant = instant;
    return instant;
  }
}
