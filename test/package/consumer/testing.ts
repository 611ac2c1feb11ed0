// The forkpoint/testing part of the consumer project (see consumer.ts): checked with vitest, the optional
// peer dependency a user of this subpath brings, and Node's types, which vitest's declarations need.
import type { Cassette } from 'forkpoint';
import { sqliteStore } from 'forkpoint';
import {
  checkStrictReplay,
  describeCassettes,
  describeStoreConformance,
  forkpointMatchers,
  readFixture,
} from 'forkpoint/testing';
import type { StrictReplayCheck } from 'forkpoint/testing';
import { expect } from 'vitest';
import { agent } from './consumer.js';

describeStoreConformance('sqlite :memory:', { open: () => sqliteStore({ path: ':memory:' }) });
describeCassettes('fixtures', { agent, name: 'helpdesk cassettes' });
expect.extend(forkpointMatchers);

export const replays = (cassette: Cassette): Promise<unknown> => expect(cassette).toReplayStrictly(agent);
export const check = async (file: string): Promise<StrictReplayCheck> =>
  checkStrictReplay(await readFixture(file), agent);
