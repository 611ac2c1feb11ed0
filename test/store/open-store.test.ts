import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { sampleRun, sampleStep } from '../../src/testing/index.js';

const folder = mkdtempSync(join(tmpdir(), 'forkpoint-open-store-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

const codeOf = async (work: Promise<unknown>): Promise<string | undefined> =>
  await work.then(
    () => undefined,
    (error: unknown) => (isForkpointError(error) ? error.code : String(error)),
  );

describe('openStore', () => {
  it('opens a SQLite file by its path or its file:// URL, the same data either way', async () => {
    const path = join(folder, 'runs.db');
    const store = await openStore(path);
    await store.createRun(sampleRun(), sampleStep(0, { checkpointFull: true }), []);
    await store.close();
    const again = await openStore(pathToFileURL(path).href, { readOnly: true });
    expect(again.location).toBe(path);
    expect((await again.listRuns()).map((run) => run.runId)).toEqual(['0000abcd']);
    await again.close();
  });

  it('opens :memory:, and refuses to read a file that is not there without making it', async () => {
    const memory = await openStore(':memory:');
    expect(await memory.listRuns()).toEqual([]);
    await memory.close();
    const missing = join(folder, 'missing.db');
    expect(await codeOf(openStore(missing, { readOnly: true }))).toBe('STORE_UNREADABLE');
    expect(existsSync(missing)).toBe(false);
  });

  it('refuses a URL of another scheme as bad input', async () => {
    expect(await codeOf(openStore('mysql://db/runs'))).toBe('USAGE');
  });
});

// The compiled CLI, as users run it (`npm test` builds it first), asked how many of pg's files it loaded.
const COUNT_PG = `
import { createRequire } from 'node:module';
const { runCli } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, '../../dist/src/cli/main.js')).href)});
const io = { stdout: { write: () => true, isTTY: false }, stderr: { write: () => true, isTTY: false }, env: {} };
await runCli(['runs', '--db', process.argv[1]], io);
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => /[\\\\/]node_modules[\\\\/]pg[\\\\/]/.test(file));
process.stdout.write(String(loaded.length));
`;
const pgFilesLoaded = (db: string): number => {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', COUNT_PG, db], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return Number(result.stdout);
};

describe('start-up', () => {
  it('never loads the PostgreSQL driver for a SQLite store, and loads it for a postgres:// URL', () => {
    expect(pgFilesLoaded(join(folder, 'startup.db'))).toBe(0);
    // Nothing listens on port 1: the driver is loaded to find that out.
    expect(pgFilesLoaded('postgres://forkpoint@127.0.0.1:1/forkpoint')).toBeGreaterThan(0);
  });
});
