import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ForkpointError } from '../errors/index.js';
import { parseJsonInput } from '../json/index.js';
import type { Scenario } from './scenario.js';
import type { SyntheticCase, SyntheticSupport } from './synthetic.js';

/** The scenario's synthetic support, or `INPUT_INVALID` naming the scenario that has none. */
export function syntheticSupportOf(scenario: Scenario): SyntheticSupport {
  if (scenario.synthetic === undefined) {
    throw new ForkpointError(
      'INPUT_INVALID',
      `scenario ${scenario.name} has no synthetic cases support (its definition has no \`synthetic\`)`,
    );
  }
  return scenario.synthetic;
}

/**
 * Reads every `*.json` case in `directory`, in file-name order, through the
 * scenario's parser. Case ids must be unique. Any unreadable or malformed file
 * is `INPUT_INVALID` naming it, and no case runs.
 */
export function loadSyntheticCases(directory: string, support: SyntheticSupport): SyntheticCase[] {
  let names: string[];
  try {
    names = readdirSync(directory)
      .filter((name) => name.endsWith('.json'))
      .sort();
  } catch (error) {
    throw new ForkpointError(
      'INPUT_INVALID',
      `cannot read the synthetic cases in ${directory} (${(error as Error).message})`,
      { cause: error },
    );
  }
  if (names.length === 0) throw new ForkpointError('INPUT_INVALID', `${directory} holds no synthetic case (*.json)`);
  const cases = names.map((name) => {
    const file = join(directory, name);
    return support.parseCase(parseJsonInput(readFileSync(file, 'utf8'), file), file);
  });
  const seen = new Map<string, string>();
  for (const testCase of cases) {
    const other = seen.get(testCase.id);
    if (other !== undefined)
      throw new ForkpointError('INPUT_INVALID', `${testCase.file}: case id ${testCase.id} is also used by ${other}`);
    seen.set(testCase.id, testCase.file);
  }
  return cases;
}
