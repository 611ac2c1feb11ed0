import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AgentBuild } from '../agent/index.js';
import { ForkpointError } from '../errors/index.js';
import type { Scenario } from './scenario.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const PACKAGE_ROOT = findPackageRoot(HERE);
// Running from TypeScript source (under vitest): load scenarios from source too, so
// that one copy of forkpoint's modules serves both sides.
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * Loads the scenario in `directory`: its `index.js` (or `index.mjs`), or, for a
 * directory inside this package, the compiled `dist/<directory>/index.js`, so
 * that `forkpoint record scenarios/claims-triage` works from the repository.
 */
export async function loadScenario(directory: string): Promise<Scenario> {
  // An empty path would name the working directory: it names no scenario.
  const absolute = directory.trim() === '' ? undefined : locateScenario(directory);
  if (absolute === undefined) {
    throw new ForkpointError(
      'SCENARIO_NOT_FOUND',
      `no scenario directory at ${JSON.stringify(directory)}; try scenarios/claims-triage`,
    );
  }
  const entry = scenarioEntry(absolute);
  if (entry === undefined) {
    throw new ForkpointError(
      'SCENARIO_NOT_FOUND',
      `the scenario directory ${directory} has no index.js or index.mjs exporting a scenario (and no compiled copy under dist/); run \`npm run build\` for a TypeScript scenario`,
    );
  }
  let module: { default?: unknown; scenario?: unknown };
  try {
    module = (await import(pathToFileURL(entry).href)) as typeof module;
  } catch (error) {
    // The scenario's own code failed (a syntax error, a throw at import): its message, not a bug of forkpoint's.
    const reason =
      error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
    throw new ForkpointError(
      'SCENARIO_LOAD_FAILED',
      `the scenario in ${directory} failed to load (${entry}): ${reason.split('\n')[0]}`,
      { cause: error },
    );
  }
  const scenario = module.default ?? module.scenario;
  if (!isScenario(scenario)) {
    throw new ForkpointError(
      'SCENARIO_NOT_FOUND',
      `the module ${entry} does not export a scenario (use defineScenario as its default export)`,
    );
  }
  return scenario;
}

/**
 * Where a scenario directory is: a path as given (absolute, or from the
 * working directory), else from this package's root, so that a built-in
 * scenario (`scenarios/claims-triage`) is found from any folder.
 */
export function locateScenario(directory: string): string | undefined {
  const candidates = isAbsolute(directory) ? [directory] : [resolve(directory), resolve(PACKAGE_ROOT, directory)];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isDirectory());
}

/**
 * How a run stores the scenario it came from, so that it is found again from
 * any folder: a directory inside this package by its path from the package
 * root (`scenarios/claims-triage`), any other by its absolute path.
 */
export function scenarioReference(directory: string): string {
  const absolute = locateScenario(directory) ?? resolve(directory);
  const inside = relative(PACKAGE_ROOT, absolute);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside.split(sep).join('/') : absolute;
}

/** The build named `name`, or `BUILD_NOT_FOUND` listing the ones that exist. */
export function buildOf(scenario: Scenario, name: string | undefined): AgentBuild {
  const build = scenario.builds[name ?? scenario.defaultBuild];
  if (build === undefined) {
    throw new ForkpointError(
      'BUILD_NOT_FOUND',
      `scenario ${scenario.name} has no build "${name}"; its builds are ${Object.keys(scenario.builds).join(', ')}`,
    );
  }
  return build;
}

function scenarioEntry(absolute: string): string | undefined {
  const candidates = [
    ...(FROM_SOURCE ? [resolve(absolute, 'index.ts')] : []),
    resolve(absolute, 'index.js'),
    resolve(absolute, 'index.mjs'),
  ];
  const inside = relative(PACKAGE_ROOT, absolute);
  if (!inside.startsWith('..') && !inside.startsWith('dist'))
    candidates.push(resolve(PACKAGE_ROOT, 'dist', inside, 'index.js'));
  return candidates.find((candidate) => existsSync(candidate));
}

function findPackageRoot(start: string): string {
  for (let directory = start; ; directory = dirname(directory)) {
    if (existsSync(join(directory, 'package.json')) && !directory.includes(`${sep}dist${sep}`)) return directory;
    if (dirname(directory) === directory) return start;
  }
}

function isScenario(value: unknown): value is Scenario {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Scenario>;
  return (
    typeof candidate.name === 'string' &&
    typeof candidate.openWorld === 'function' &&
    typeof candidate.builds === 'object'
  );
}
