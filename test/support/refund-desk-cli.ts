import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { liveCalls, worldSettings } from '../fixtures/scenarios/refund-desk/index.js';
import { cli, tempFolder } from './cli-harness.js';
import { resetCalls } from './refund-agent.js';

/** The refund-desk fixture scenario, whose refund tool is not read-only. */
export const DIR = 'test/fixtures/scenarios/refund-desk';
/** The run every test records first. */
export const PARENT = '0000aaaa';
/** A later world date for re-executions. */
export const LATER = '2026-03-09';
/** The order was 80, not 120: fork the lookup_order step (step 2) with that. */
export const FORK = ['fork', PARENT, '--at-step', '2', '--tool-merge', '{"amount":80}'];

/**
 * The CLI over a fresh database for each test of the file that calls this,
 * with the fixture's call counters reset: the side-effect tests of every mode
 * start from the same recording.
 */
export function refundDeskCli() {
  let folder: ReturnType<typeof tempFolder> | undefined;
  let db = '';
  beforeEach(() => {
    folder = tempFolder('forkpoint-side-effects-cli-');
    db = join(folder.path, 'forkpoint.db');
    resetCalls(liveCalls);
    worldSettings.notify = false;
  });
  afterEach(() => {
    worldSettings.notify = false;
    folder?.cleanup();
  });
  const run = (args: readonly string[], options: { env?: Record<string, string>; tty?: boolean } = {}) =>
    cli([...args, '--db', db], options);
  const record = async () => {
    const result = await run([
      'record',
      DIR,
      '--order',
      'ORD-1',
      '--at',
      '2026-03-04',
      '--run-id',
      PARENT,
      '--seed',
      '7',
    ]);
    expect(result.exit, result.stderr).toBe(0);
  };
  return { run, record };
}
