import { errorKindOf, isForkpointError } from '../errors/index.js';
import type { CliIo } from './cli-io.js';
import { processIo } from './cli-io.js';
import type { Command } from './command.js';
import { CommandContext } from './command.js';
import { demoCommand } from './commands/demo.js';
import { divergenceReportCommand } from './commands/divergence-report.js';
import { driftCommand } from './commands/drift.js';
import { lintCommand } from './commands/lint.js';
import { printOverview } from './commands/help.js';
import { compareCommand } from './commands/compare.js';
import { evalCommand } from './commands/eval.js';
import { exportCommand } from './commands/export.js';
import { forkCommand } from './commands/fork.js';
import { gcCommand } from './commands/gc.js';
import { recordBatchCommand } from './commands/record-batch.js';
import { recordCommand } from './commands/record.js';
import { reexecuteCommand } from './commands/reexecute.js';
import { replayCommand } from './commands/replay.js';
import { resumeCommand } from './commands/resume.js';
import { retentionCommand } from './commands/retention.js';
import { runsCommand } from './commands/runs.js';
import { showCommand } from './commands/show.js';
import { suiteCommand } from './commands/suite.js';
import { treeCommand } from './commands/tree.js';
import { verifyCommand } from './commands/verify.js';
import type { ExitCode } from './exit-codes.js';
import { EXIT } from './exit-codes.js';

/** Every command, in the order help lists them. */
export const COMMANDS: readonly Command[] = [
  recordCommand,
  recordBatchCommand,
  replayCommand,
  reexecuteCommand,
  forkCommand,
  resumeCommand,
  compareCommand,
  verifyCommand,
  divergenceReportCommand,
  suiteCommand,
  evalCommand,
  driftCommand,
  lintCommand,
  runsCommand,
  showCommand,
  treeCommand,
  exportCommand,
  gcCommand,
  retentionCommand,
  demoCommand,
];

/**
 * Runs one CLI invocation and returns its exit status. Errors never escape:
 * bad input prints its code and message (exit 2), a bug prints a one-line
 * report (exit 3; `FORKPOINT_DEBUG=1` adds the stack).
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<ExitCode> {
  const cli = new CommandContext(io);
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    printOverview(COMMANDS, cli);
    return name === undefined ? EXIT.badInput : EXIT.ok;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  const json = args.includes('--json');
  try {
    if (command === undefined) {
      return report(
        cli,
        json,
        'USAGE',
        `unknown command "${name}"; the commands are ${COMMANDS.map((c) => c.name).join(', ')}`,
        EXIT.badInput,
      );
    }
    return await command.run(args, cli);
  } catch (error) {
    if (isForkpointError(error)) {
      // A failure of the user's code before any run existed (a system prompt that throws) is an outcome, not a bug.
      const kind = errorKindOf(error.code);
      const exit = kind === 'input' ? EXIT.badInput : kind === 'outcome' ? EXIT.negative : EXIT.internal;
      if (exit === EXIT.internal && io.env.FORKPOINT_DEBUG === '1') io.stderr.write(`${error.stack ?? ''}\n`);
      return report(cli, json, error.code, error.message, exit);
    }
    const message = error instanceof Error ? error.message : String(error);
    if (io.env.FORKPOINT_DEBUG === '1' && error instanceof Error) io.stderr.write(`${error.stack ?? ''}\n`);
    return report(
      cli,
      json,
      'INTERNAL',
      `${message} (a bug in forkpoint; FORKPOINT_DEBUG=1 shows the stack)`,
      EXIT.internal,
    );
  }
}

function report(cli: CommandContext, json: boolean, code: string, message: string, exit: ExitCode): ExitCode {
  // One line, always: a message that quotes a file or a value may hold line breaks of its own.
  const line = message.replace(/\r?\n/g, '\\n');
  cli.note(`forkpoint: ${code}: ${line}`);
  if (json) cli.json({ error: { code, message: line } });
  return exit;
}
