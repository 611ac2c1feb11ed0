import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

// The compiled CLI, as users run it (`npm test` builds it first).
const BIN = join(import.meta.dirname, '../../bin/forkpoint.js');
const run = promisify(execFile);

/** What one `node bin/forkpoint.js ...` printed, and its exit status. */
export interface ProcessResult {
  readonly exit: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/forkpoint.js ...args` to its end; a non-zero exit is returned, not thrown. */
export async function forkpoint(args: readonly string[]): Promise<ProcessResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { exit: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { exit: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** A running `forkpoint ui`: the URL it printed, and how to stop it. */
export interface UiServer {
  /** The URL of the first stdout line, e.g. `http://127.0.0.1:40123/`. */
  readonly url: string;
  /** `http://127.0.0.1:PORT`: the only origin its pages may ask anything of. */
  readonly origin: string;
  /** Stops the server (SIGTERM) and waits for the process to end. */
  stop(): Promise<void>;
}

// `forkpoint ui: http://127.0.0.1:PORT/ ...`: the server's address, wherever on the line it stands.
const URL_IN_LINE = /http:\/\/127\.0\.0\.1:\d+\/\S*/;

/** Starts `node bin/forkpoint.js ui --db DB --port 0` and resolves once its first stdout line names the URL. */
export function startUi(db: string): Promise<UiServer> {
  const child = spawn(process.execPath, [BIN, 'ui', '--db', db, '--port', '0'], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise<UiServer>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    child.once('exit', (code, signal) => {
      reject(new Error(`forkpoint ui ended before it printed its URL (exit ${code ?? signal ?? '?'}): ${stderr}`));
    });
    child.once('error', reject);
    // Only the first line is read; readline goes on draining the rest, so a chatty server never blocks on its pipe.
    lines.once('line', (line) => {
      const url = URL_IN_LINE.exec(line)?.[0];
      if (url === undefined) {
        void stop().then(() => {
          reject(new Error(`forkpoint ui's first line names no http://127.0.0.1 URL: ${line}`));
        });
        return;
      }
      resolve({ url, origin: new URL(url).origin, stop });
    });
  });
}
