// The forkpoint/testing part of the consumer project (see consumer.ts): checked with vitest, the optional
// peer dependency a user of this subpath brings, and Node's types, which vitest's declarations need.
import type { Cassette, RecordResult, ReplayResult } from 'forkpoint';
import { sqliteStore } from 'forkpoint';
import {
  checkStrictReplay,
  checkTrajectory,
  describeCassettes,
  describeStoreConformance,
  forkpointMatchers,
  readFixture,
} from 'forkpoint/testing';
import type { StrictReplayCheck, TrajectoryCheck } from 'forkpoint/testing';
import { expect } from 'vitest';
import { agent } from './consumer.js';

describeStoreConformance('sqlite :memory:', { open: () => sqliteStore({ path: ':memory:' }) });
describeCassettes('fixtures', { agent, name: 'helpdesk cassettes' });
expect.extend(forkpointMatchers);

export const replays = (cassette: Cassette): Promise<unknown> => expect(cassette).toReplayStrictly(agent);
export const check = async (file: string): Promise<StrictReplayCheck> =>
  checkStrictReplay(await readFixture(file), agent);

// The trajectory matchers, typed in the user's own vitest by the same augmentation.
export const trajectory = (replay: ReplayResult, run: RecordResult): void => {
  expect(replay).not.toHaveCalled('estimate_repair');
  expect(run).toHaveCalled('ocr_document', { times: 2 });
  expect(run).toHaveTrajectory(['fetch_claim', 'ocr_document'], { order: 'superset' });
  expect(run).toHaveStepsAtMost(9);
  expect(run).toHaveCalledWith('ocr_document', expect.objectContaining({ document_id: 'DOC-77120' }));
  // @ts-expect-error: an order mode is one of strict, unordered, subset, superset
  expect(run).toHaveTrajectory(['fetch_claim'], { order: 'prefix' });
  // @ts-expect-error: a count is a number
  expect(run).toHaveCalled('ocr_document', { times: 'twice' });
};
export const checked = (run: RecordResult): TrajectoryCheck => checkTrajectory(run.steps, ['fetch_claim']);
