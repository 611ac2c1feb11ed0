import type { CheckpointRow, MessageLog, StepRecord } from '../step-record.js';
import type { MemoryBlobs } from './memory-blobs.js';

/** The rows from `from` to `to` (inclusive), copied. */
export function rowsBetween(rows: readonly StepRecord[], from: number, to: number): StepRecord[] {
  return rows.filter((row) => row.step >= from && row.step <= to).map((row) => ({ ...row }));
}

/** The rows that rebuild checkpoint `step`: from the nearest full checkpoint at or before it; none without row `step`. */
export function checkpointChainOf(rows: readonly StepRecord[], step: number): CheckpointRow[] {
  const end = rows.findIndex((row) => row.step === step);
  if (end === -1) return [];
  const start = rows.findLastIndex((row, i) => i <= end && row.checkpointFull);
  if (start < 0) return [];
  return rows
    .slice(start, end + 1)
    .map(({ step: at, checkpoint, checkpointFull }) => ({ step: at, checkpoint, checkpointFull }));
}

/**
 * The messages rows from `from` to `to` appended: the segments in the range
 * when it starts at the run's first row (a segment covers every row since
 * the previous one), then the messages of the rows after the last segment.
 */
export function messagesOf(rows: readonly StepRecord[], blobs: MemoryBlobs, from: number, to: number): MessageLog {
  const start = Math.max(0, from);
  const inRange = rows.filter((row) => row.step >= start && row.step <= to);
  const segments: string[] = [];
  let after = start - 1;
  if (!rows.some((row) => row.step < start)) {
    for (const row of inRange) {
      if (row.messageSegment === null) continue;
      const body = blobs.read([row.messageSegment]).get(row.messageSegment);
      if (body === undefined) continue;
      segments.push(body);
      after = row.step;
    }
  }
  const messages: string[] = [];
  const digests: string[] = [];
  for (const row of inRange) {
    if (row.step <= after || row.message === null) continue;
    messages.push(row.message);
    digests.push(row.messageDigest ?? '');
  }
  return { segments, messages, digests };
}
