import type { CommanderError, CommandUnknownOpts } from '@commander-js/extra-typings';
import { ForkpointError } from '../errors/index.js';
import { ScenarioFlags } from './options/scenario-flags.js';

/**
 * A parse error as a one-line `USAGE` error: commander's own words (an
 * unknown option with its likely meaning, a missing argument, a value that
 * is not one of the choices), and where the command's help is.
 */
export function usageError(error: CommanderError, command: CommandUnknownOpts | undefined): ForkpointError {
  const words = error.message
    .replace(/^error: /, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ')
    .replace(/\.$/, '');
  const hint =
    error.code === 'commander.unknownOption' && command !== undefined
      ? (ScenarioFlags.of(command)?.unknownOptionHint(command) ?? '')
      : '';
  const help = command === undefined ? 'forkpoint --help' : `forkpoint ${command.name()} --help`;
  return new ForkpointError('USAGE', `${words}${hint}; see \`${help}\``, { cause: error });
}
