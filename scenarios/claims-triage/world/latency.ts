import { setTimeout as sleep } from 'node:timers/promises';

/** A wait of `latencyMs` before each tool answers; no wait (and no timer) at 0. */
export function latencyDelay(latencyMs: number): () => Promise<void> {
  return latencyMs > 0 ? () => sleep(latencyMs).then(() => undefined) : () => Promise.resolve();
}
