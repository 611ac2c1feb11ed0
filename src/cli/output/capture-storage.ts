import type { CapturePolicy, RecordResult } from '../../engine/index.js';
import { formatCapturePolicy } from '../../engine/index.js';
import { formatBytes } from './format-tiers.js';

/** What a capture policy kept of a batch, and what a day of such runs would cost in storage. */
export interface CaptureStorage {
  readonly policy: string;
  readonly recorded: number;
  readonly keptFull: number;
  readonly keptBecause: { readonly error: number; readonly sampled: number };
  /** Mean bytes per run of each tier, as cassette files. */
  readonly bytesPerRun: { readonly full: number; readonly structural: number };
  readonly runsPerDay: number;
  /** Bytes a day: every run in full, and under the policy (full for the kept share, structural for every run). */
  readonly bytesPerDay: { readonly captureAll: number; readonly policy: number };
  /** The share of runs the policy keeps in full: observed in this batch, and expected at its rate given the observed error rate. */
  readonly keptShare: { readonly observed: number; readonly expected: number };
}

/**
 * The chapter's arithmetic over a recorded batch: a full run costs its
 * cassette, every run costs its structural record, and the policy keeps in
 * full the runs that fail plus its sampled share of the rest.
 */
export function captureStorage(
  policy: CapturePolicy,
  runs: readonly RecordResult[],
  runsPerDay: number,
): CaptureStorage {
  const reports = runs.flatMap((run) => (run.capture === undefined ? [] : [run.capture]));
  const mean = (values: readonly number[]) =>
    values.length === 0 ? 0 : Math.round(values.reduce((sum, value) => sum + value, 0) / values.length);
  const full = mean(reports.map((report) => report.bytes.full));
  const structural = mean(reports.map((report) => report.bytes.structural));
  // Failures counted from the runs themselves: under `all` every run is kept for that reason, not for failing.
  const errors = runs.filter((run) => run.status !== 'completed').length;
  const keptFull = reports.filter((report) => report.kept).length;
  const errorShare = reports.length === 0 ? 0 : errors / reports.length;
  const rate = policy.keep === 'all' ? 1 : policy.rate;
  const expected = policy.keep === 'all' ? 1 : errorShare + (1 - errorShare) * rate;
  return {
    policy: formatCapturePolicy(policy),
    recorded: runs.length,
    keptFull,
    keptBecause: { error: errors, sampled: reports.filter((report) => report.reason === 'sampled').length },
    bytesPerRun: { full, structural },
    runsPerDay,
    // Keeping everything stores no structural record beside the full one: it is made from the full tier when asked.
    bytesPerDay: {
      captureAll: runsPerDay * full,
      policy: policy.keep === 'all' ? runsPerDay * full : Math.round(runsPerDay * (expected * full + structural)),
    },
    keptShare: { observed: reports.length === 0 ? 0 : keptFull / reports.length, expected },
  };
}

/** The capture summary in a few lines. */
export function formatCaptureStorage(storage: CaptureStorage): string {
  const percent = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
  if (storage.policy === 'all') {
    return [
      `capture all: kept all ${storage.recorded} runs in full (${storage.keptBecause.error} of them failed)`,
      `  per run: full ${formatBytes(storage.bytesPerRun.full)}, structural ${formatBytes(storage.bytesPerRun.structural)}`,
      `  per day at ${storage.runsPerDay} runs: ${formatBytes(storage.bytesPerDay.captureAll)}; the default, errors+sample:0.01, keeps the failures and a 1% sample in full`,
    ].join('\n');
  }
  return [
    `capture ${storage.policy}: kept ${storage.keptFull} of ${storage.recorded} runs in full (${storage.keptBecause.error} failed, ${storage.keptBecause.sampled} sampled); the rest keep their structural tier and summary`,
    `  per run: full ${formatBytes(storage.bytesPerRun.full)}, structural ${formatBytes(storage.bytesPerRun.structural)}`,
    `  per day at ${storage.runsPerDay} runs: ${formatBytes(storage.bytesPerDay.captureAll)} capturing all; ${formatBytes(storage.bytesPerDay.policy)} under ${storage.policy} (${percent(storage.keptShare.expected)} kept in full at this batch's failure rate)`,
  ].join('\n');
}
