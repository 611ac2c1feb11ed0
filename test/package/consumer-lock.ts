import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** An entry of `package-lock.json`'s `packages`. */
interface LockedPackage {
  readonly version?: string;
  readonly integrity?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
}

/** What a consumer project is made of: its `package.json` and its `package-lock.json`. */
export interface ConsumerProject {
  readonly packageJson: string;
  readonly packageLock: string;
}

/**
 * A project that depends on the packed tarball alone, with a lock file that pins every package the
 * tarball's `dependencies` need (and nothing else) to the versions and integrity hashes of this
 * repository's lock. `npm ci --offline` installs it from npm's cache, which `npm ci` in this repository
 * filled: without the lock, npm would ask the registry for each package's metadata, which the cache does
 * not hold. The packages are the ones `npm ci` installs for a user, and devDependencies are not among them.
 */
export function consumerProject(repository: string, tarball: string): ConsumerProject {
  const lock = JSON.parse(readFileSync(`${repository}/package-lock.json`, 'utf8')) as {
    readonly packages: Readonly<Record<string, LockedPackage>>;
  };
  const manifest = JSON.parse(readFileSync(`${repository}/package.json`, 'utf8')) as LockedPackage & {
    readonly name: string;
    readonly version: string;
    readonly bin?: Readonly<Record<string, string>>;
  };
  const kept = new Map<string, LockedPackage>();
  const visit = (from: string, wanted: LockedPackage): void => {
    for (const name of namesNeeded(wanted)) {
      const path = lockedPath(lock.packages, from, name);
      if (path === undefined)
        throw new Error(`${name}, needed by ${from || manifest.name}, is not in package-lock.json`);
      if (kept.has(path)) continue;
      const entry = lock.packages[path]!;
      kept.set(path, entry);
      visit(path, entry);
    }
  };
  visit('', manifest);
  const spec = `file:${tarball}`;
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  const { dependencies, peerDependencies, peerDependenciesMeta, bin } = manifest;
  const packageLock = {
    name: 'consumer',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'consumer', dependencies: { [manifest.name]: spec } },
      [`node_modules/${manifest.name}`]: {
        version: manifest.version,
        resolved: spec,
        integrity,
        dependencies,
        peerDependencies,
        peerDependenciesMeta,
        bin,
      },
      ...Object.fromEntries(kept),
    },
  };
  const packageJson = { name: 'consumer', private: true, type: 'module', dependencies: { [manifest.name]: spec } };
  return { packageJson: JSON.stringify(packageJson, null, 2), packageLock: JSON.stringify(packageLock, null, 2) };
}

// What npm installs for a package: its dependencies, optional ones and peers that are not optional.
const namesNeeded = (entry: LockedPackage): string[] => [
  ...Object.keys(entry.dependencies ?? {}),
  ...Object.keys(entry.optionalDependencies ?? {}),
  ...Object.keys(entry.peerDependencies ?? {}).filter((name) => entry.peerDependenciesMeta?.[name]?.optional !== true),
];

// Node's lookup over the lock's tree: the package's own node_modules, then each one above it.
function lockedPath(packages: Readonly<Record<string, LockedPackage>>, from: string, name: string): string | undefined {
  for (let directory = from; ;) {
    const candidate = `${directory === '' ? '' : `${directory}/`}node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (directory === '') return undefined;
    const parent = directory.lastIndexOf('/node_modules/');
    directory = parent < 0 ? '' : directory.slice(0, parent);
  }
}
