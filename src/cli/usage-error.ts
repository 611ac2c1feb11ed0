import type { CommanderError } from '@commander-js/extra-typings';
import { ForkpointError } from '../errors/index.js';

/**
 * A parse error as a one-line `USAGE` error: commander's own words (an
 * unknown option with its likely meaning, a missing argument, a value that
 * is not one of the choices), and where the command's help is.
 */
export function usageError(error: CommanderError, commandName: string | undefined): ForkpointError {
  const words = error.message
    .replace(/^error: /, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ')
    .replace(/\.$/, '');
  const help = commandName === undefined ? 'forkpoint --help' : `forkpoint ${commandName} --help`;
  return new ForkpointError('USAGE', `${words}; see \`${help}\``, { cause: error });
}
