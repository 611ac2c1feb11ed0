/** Where a command writes, and the environment it reads: injected so commands run in-process in tests. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean; readonly columns?: number };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A uniform number in [0, 1): the seeds of the simulated worlds a command opens. Default: crypto-random. */
  readonly random?: () => number;
  /** Settles when the process is asked to stop (Ctrl-C, SIGTERM): a command that serves waits on it. */
  readonly untilStopped?: () => Promise<void>;
}

/** The process's own streams and environment. */
export const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  untilStopped: () =>
    new Promise((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    }),
};
