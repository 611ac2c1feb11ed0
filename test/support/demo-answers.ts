import { expect } from 'vitest';
import { cli } from './cli-harness.js';

/** Runs the CLI with `--json`, expects nothing on stderr, and returns the document it printed. */
export async function cliJson(args: readonly string[]): Promise<unknown> {
  const result = await cli([...args, '--json']);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as unknown;
}

/** What the reading commands answer about the demo's incident and its fork in store `db`, each as one JSON document. */
export async function demoAnswers(db: string, forkId: string): Promise<Record<string, unknown>> {
  return {
    runs: await cliJson(['runs', '--limit', '1000', '--db', db]),
    tree: await cliJson(['tree', '9b40c1d5', '--db', db]),
    show: await cliJson(['show', '9b40c1d5', '--db', db]),
    fork: await cliJson(['show', forkId, '--db', db]),
    checkpoint: await cliJson(['show', forkId, '--step', '5', '--db', db]),
    compare: await cliJson(['compare', '9b40c1d5', forkId, '--db', db]),
  };
}

// The clock of the two runs below: the incident's full tier is still kept then.
const NOW = ['--now', '2026-03-07T10:00:00Z'];

/** A strict replay of the incident under the patched build in `db`, as JSON text with the replay's own fresh id masked. */
export async function demoReplayAnswer(db: string): Promise<string> {
  const result = await cli(['replay', '9b40c1d5', '--strict', '--build', 'patched', '--json', ...NOW, '--db', db]);
  expect(result.exit).toBe(0);
  return result.stdout.replace(/"runId": "[0-9a-f]{12}"/, '"runId": "(replay)"');
}

/** The incident forked at step 4 with the OCR value corrected, under a fixed run id and seed, in `db`. */
export function demoForkAnswer(db: string): Promise<unknown> {
  return cliJson([
    'fork',
    '9b40c1d5',
    '--at-step',
    '4',
    '--tool-merge',
    '{"fields":{"damage_area_cm2":{"value":2050,"confidence":0.97}}}',
    '--side-effects',
    'estimate_repair=simulate',
    '--run-id',
    '00000000c0de',
    '--seed',
    '7',
    ...NOW,
    '--db',
    db,
  ]);
}
