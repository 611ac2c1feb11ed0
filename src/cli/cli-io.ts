/** Where a command writes, and the environment it reads: injected so commands run in-process in tests. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean; readonly columns?: number };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A uniform number in [0, 1): the seeds of the simulated worlds a command opens. Default: crypto-random. */
  readonly random?: () => number;
}

/** The process's own streams and environment. */
export const processIo: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };
