import { CommanderError } from '@commander-js/extra-typings';
import { errorKindOf, isForkpointError } from '../errors/index.js';
import type { CliIo } from './cli-io.js';
import { processIo } from './cli-io.js';
import { CommandContext } from './command-context.js';
import type { ExitCode } from './exit-codes.js';
import { EXIT } from './exit-codes.js';
import { cliMessage } from './flag-hints.js';
import { createProgram } from './program.js';
import { usageError } from './usage-error.js';

/**
 * Runs one CLI invocation and returns its exit status. Errors never escape:
 * bad input prints its code and message on one line (exit 2), a bug prints a
 * one-line report (exit 3; `FORKPOINT_DEBUG=1` adds the stack).
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2));
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<ExitCode> {
  const cli = new CommandContext(io, argv);
  const program = createProgram(cli);
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT.badInput;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    await cli.closeWorlds();
    return cli.exitCode;
  } catch (error) {
    await cli.closeWorlds().catch(() => undefined);
    // Help and --version end the parse by throwing, with the status they would exit with.
    if (error instanceof CommanderError && error.code.startsWith('commander.help'))
      return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    const reported = error instanceof CommanderError ? usageError(error, cli.command) : error;
    return report(cli, argv, reported);
  }
}

function report(cli: CommandContext, argv: readonly string[], error: unknown): ExitCode {
  if (isForkpointError(error)) {
    // A failure of the user's code before any run existed (a system prompt that throws) is an outcome, not a bug.
    const kind = errorKindOf(error.code);
    const exit = kind === 'input' ? EXIT.badInput : kind === 'outcome' ? EXIT.negative : EXIT.internal;
    if (exit === EXIT.internal) debug(cli, error);
    return print(cli, argv, error.code, cliMessage(error), exit);
  }
  debug(cli, error);
  const message = error instanceof Error ? error.message : String(error);
  return print(
    cli,
    argv,
    'INTERNAL',
    `${message} (a bug in forkpoint; FORKPOINT_DEBUG=1 shows the stack)`,
    EXIT.internal,
  );
}

function debug(cli: CommandContext, error: unknown): void {
  if (cli.io.env.FORKPOINT_DEBUG === '1' && error instanceof Error) cli.note(error.stack ?? '');
}

function print(cli: CommandContext, argv: readonly string[], code: string, message: string, exit: ExitCode): ExitCode {
  // One line, always: a message that quotes a file or a value may hold line breaks of its own.
  const line = message.replace(/\r?\n/g, '\\n');
  cli.note(`forkpoint: ${code}: ${line}`);
  // Asked by the words given: a parse that stopped early never read its --json.
  if (argv.includes('--json')) cli.json({ error: { code, message: line } });
  return exit;
}
