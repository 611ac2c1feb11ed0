import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { Command } from '@commander-js/extra-typings';
import { ForkpointError } from '../errors/index.js';
import type { CommandContext } from './command-context.js';
import { approveCommand } from './commands/approve.js';
import { compareCommand } from './commands/compare.js';
import { copyCommand } from './commands/copy.js';
import { demoCommand } from './commands/demo.js';
import { divergenceReportCommand } from './commands/divergence-report.js';
import { driftCommand } from './commands/drift.js';
import { evalCommand } from './commands/eval.js';
import { exportCommand } from './commands/export.js';
import { forkCommand } from './commands/fork.js';
import { gcCommand } from './commands/gc.js';
import { lintCommand } from './commands/lint.js';
import { recordBatchCommand } from './commands/record-batch.js';
import { recordCommand } from './commands/record.js';
import { reexecuteCommand } from './commands/reexecute.js';
import { replayCommand } from './commands/replay.js';
import { resumeCommand } from './commands/resume.js';
import { retentionCommand } from './commands/retention.js';
import { runsCommand } from './commands/runs.js';
import { showCommand } from './commands/show.js';
import { suiteCommand } from './commands/suite.js';
import { similarCommand } from './commands/similar.js';
import { classesCommand } from './commands/classes.js';
import { treeCommand } from './commands/tree.js';
import { reportCommand } from './commands/report.js';
import { uiCommand } from './commands/ui.js';
import { verifyCommand } from './commands/verify.js';
import { ScenarioFlags } from './options/scenario-flags.js';

/** Every command, in the order help lists them; each is made afresh for one invocation. */
export const COMMANDS: readonly ((cli: CommandContext) => CommandUnknownOpts)[] = [
  recordCommand,
  recordBatchCommand,
  replayCommand,
  reexecuteCommand,
  forkCommand,
  resumeCommand,
  approveCommand,
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
  similarCommand,
  classesCommand,
  exportCommand,
  copyCommand,
  uiCommand,
  reportCommand,
  gcCommand,
  retentionCommand,
  demoCommand,
];

const EXIT_STATUS = 'exit status: 0 success, 1 the run failed or diverged, 2 bad usage or input, 3 internal error';

/**
 * The `forkpoint` program over `cli`'s streams: commander parses, checks and
 * explains; nothing exits the process (every end, help included, is thrown
 * back to `runCli` with its status).
 */
export function createProgram(cli: CommandContext): CommandUnknownOpts {
  const { stdout, stderr } = cli.io;
  const program = new Command('forkpoint')
    .description('forkpoint: record, replay, re-execute and fork LLM agent runs.')
    .usage('<command> [options]')
    .helpOption('-h, --help', 'show this help')
    // Commander's own help command prints a command's help before any hook runs, so without its scenario's flags.
    .helpCommand(false)
    // The program's own options end at the command's name: everything after it is the command's.
    .enablePositionalOptions()
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => stdout.write(text),
      writeErr: (text) => stderr.write(text),
      // Errors are reported by runCli, on one line with their code.
      outputError: () => undefined,
      getOutHelpWidth: () => (stdout.isTTY === true && stdout.columns !== undefined ? stdout.columns : 100),
      getErrHelpWidth: () => 100,
    })
    .addHelpText('after', `\n${EXIT_STATUS}`);
  for (const make of COMMANDS) {
    const command = make(cli).copyInheritedSettings(program);
    command.addHelpText('after', `\n${EXIT_STATUS}`);
    program.addCommand(command);
  }
  program.addCommand(helpCommand(program).copyInheritedSettings(program));
  // The one moment between routing and parsing: a scenario command learns its scenario's input flags here.
  program.hook('preSubcommand', async (root, command) => {
    cli.command = command;
    const flags = ScenarioFlags.of(command);
    if (flags === undefined) return;
    const words = root.args;
    const next = words[words.indexOf(command.name()) + 1];
    await flags.declare(command, next !== undefined && !next.startsWith('-') ? next : undefined);
  });
  return program;
}

/** `forkpoint help [command]`: the program's help, or a command's as `forkpoint <command> --help` shows it. */
function helpCommand(program: CommandUnknownOpts): CommandUnknownOpts {
  return new Command('help')
    .description("show a command's help")
    .argument('[command]', 'the command')
    .action(async (name) => {
      if (name === undefined) {
        program.outputHelp();
        return;
      }
      const command = program.commands.find((candidate) => candidate.name() === name);
      if (command === undefined)
        throw new ForkpointError('USAGE', `unknown command '${name}'; see \`forkpoint --help\``);
      await ScenarioFlags.of(command)?.declare(command, undefined);
      command.outputHelp();
    });
}
