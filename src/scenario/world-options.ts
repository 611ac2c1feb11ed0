/** How a scenario opens its live world. */
export interface WorldOptions {
  /** The world's date, `YYYY-MM-DD`: tools answer as of that day. */
  readonly at: string;
  /** Drives the simulated model's sampling; the same seed gives the same run. */
  readonly seed: number;
  /** Simulated latency per call, in milliseconds. */
  readonly latencyMs: number;
}
