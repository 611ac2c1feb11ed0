import { expect } from 'vitest';
import { cli } from './cli-harness.js';

/** The refund-desk fixture scenario: its `supervised` build asks a person before a refund over 100. */
export const REFUND_DESK = 'test/fixtures/scenarios/refund-desk';

/** ORD-1 (120) recorded with `supervised` and left waiting for the refund's approval after step 5. */
export const WAITING = '0000a0a00001';
/** ORD-1 recorded the same way, then approved by {@link REVIEWER}: it refunds at step 7 and completes. */
export const APPROVED = '0000a0a00002';
/** A fork of {@link APPROVED} at step 6 whose reviewer rejects the refund instead: it pays nothing. */
export const REJECTED = '0000a0a00003';
/** A fork of {@link APPROVED} at step 5 whose model asks to refund 130: another call, so it waits again. */
export const ASKS_MORE = '0000a0a00004';

/** Who answered, and why. */
export const REVIEWER = 'dana@example.com';
export const NOTE = 'checked the invoice';
export const REASON = 'duplicate';

/** What {@link writeApprovalRuns} made, as the CLI printed it. */
export interface ApprovalRuns {
  /** The request hash of ORD-1's refund call: what both recordings waited for. */
  readonly refundHash: string;
}

/**
 * Writes, through the CLI, into the SQLite file `db`: {@link WAITING},
 * {@link APPROVED} (recorded, then approved with `--call`), {@link REJECTED}
 * and {@link ASKS_MORE}. Each command must succeed as a user would see it.
 */
export async function writeApprovalRuns(db: string): Promise<ApprovalRuns> {
  const run = async (args: readonly string[], exit = 0) => {
    const result = await cli([...args, '--db', db]);
    expect(result.exit, `${args.join(' ')}: ${result.stderr}`).toBe(exit);
    return result.stdout;
  };
  const record = (runId: string) =>
    // A recording that stops to wait has not completed: record exits 1, as for any run that did not complete.
    run(
      [
        'record',
        REFUND_DESK,
        '--order',
        'ORD-1',
        '--build',
        'supervised',
        '--at',
        '2026-03-04',
        '--run-id',
        runId,
        '--seed',
        '7',
      ],
      // A run waiting for a person is no failure: it exits 0.
      0,
    );
  await record(WAITING);
  await record(APPROVED);
  const shown = JSON.parse(await run(['show', APPROVED, '--json'])) as { pendingApproval: { requestHash: string } };
  const refundHash = shown.pendingApproval.requestHash;
  await run(['approve', APPROVED, '--call', refundHash, '--by', REVIEWER, '--reason', NOTE]);
  await run(['fork', APPROVED, '--at-step', '6', '--approval', 'rejected', '--reason', REASON, '--run-id', REJECTED]);
  const patch = { kind: 'model-patch', operations: [{ op: 'replace', path: '/content/1/input/amount', value: 130 }] };
  await run(['fork', APPROVED, '--at-step', '5', '--override', JSON.stringify(patch), '--run-id', ASKS_MORE]);
  return { refundHash };
}
