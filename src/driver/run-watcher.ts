import type { CompletedStep } from './drive-types.js';

/**
 * Who watches a run as it happens: told once the run exists (before its first
 * step, under the id it was stored with) and of every step once the sink has
 * it. A mode that returns its steps collects them here instead of reading its
 * run back.
 */
export interface RunWatcher {
  started(runId: string): void;
  committed(step: CompletedStep): void;
}

/** A watcher that is told nothing it keeps. */
export const UNWATCHED: RunWatcher = { started: () => undefined, committed: () => undefined };
