import type { Command, CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { ExitCode } from '../exit-codes.js';
import { COMMON_OPTIONS } from '../parse-options.js';

/** Prints a command's help. */
export function printCommandHelp(command: Command, cli: CommandContext): ExitCode {
  const lines = [`forkpoint ${command.name} ${command.usage}`, '', `  ${command.summary}`, ''];
  for (const [name, spec] of Object.entries({ ...command.options, ...COMMON_OPTIONS })) {
    const flag = `${spec.short === undefined ? '' : `-${spec.short}, `}--${name}${spec.value === undefined ? '' : ` ${spec.value}`}`;
    lines.push(`  ${flag.padEnd(26)} ${spec.description}`);
  }
  cli.print(lines.join('\n'));
  return EXIT.ok;
}

/** Prints the list of commands. */
export function printOverview(commands: readonly Command[], cli: CommandContext): void {
  const lines = [
    'forkpoint: record, replay, re-execute and fork LLM agent runs.',
    '',
    'usage: forkpoint <command> [options]     (forkpoint <command> --help for its options)',
    '',
    ...commands.map(
      (command) =>
        `  ${command.name.padEnd(Math.max(...commands.map((other) => other.name.length)))}  ${command.summary}`,
    ),
    '',
    'exit status: 0 success, 1 the run failed or diverged, 2 bad usage or input, 3 internal error',
  ];
  cli.print(lines.join('\n'));
}
