import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main.js';

/** What one in-process CLI invocation printed and returned. */
export interface CliResult {
  readonly exit: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in this process with captured output. */
export async function cli(
  args: readonly string[],
  options: { env?: Record<string, string>; tty?: boolean; stderrTty?: boolean } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const exit = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text), isTTY: options.tty ?? false },
    stderr: { write: (text: string) => (stderr += text), isTTY: options.stderrTty ?? false },
    env: options.env ?? { NO_COLOR: '1' },
  });
  return { exit, stdout, stderr };
}

/** A temporary folder removed by `cleanup`. */
export function tempFolder(prefix: string): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    cleanup: () => {
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** The arguments that record the claims incident, CLM-91077 on 2026-03-04 with the baseline build, as 9b40c1d5. */
export const RECORD_INCIDENT: readonly string[] = [
  'record',
  'scenarios/claims-triage',
  '--claim',
  'CLM-91077',
  '--at',
  '2026-03-04',
  '--run-id',
  '9b40c1d5',
];
