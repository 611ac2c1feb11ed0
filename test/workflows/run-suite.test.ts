import { runSuite } from '../../src/workflows/index.js';
import { describe, expect, it } from 'vitest';
import type { Cassette } from '../../src/cassette/index.js';
import type { SuiteCase } from '../../src/workflows/index.js';
import { ForkpointError } from '../../src/errors/index.js';
import { createEngine } from '../../src/engine/index.js';
import { findCassetteFiles, readCassetteFile } from '../../src/cassette/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { build } from '../support/incident.js';

const files = findCassetteFiles('test/fixtures/cassettes').slice(0, 6);
const freshEngine = () => createEngine({ store: sqliteStore({ path: ':memory:' }) });

/** Every object reachable from `root`. */
function reachable(root: unknown): Set<object> {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    for (const key of Reflect.ownKeys(node)) stack.push((node as Record<PropertyKey, unknown>)[key]);
  }
  return seen;
}

// What the cases say, without what differs from run to run.
const verdicts = (cases: readonly SuiteCase[]) =>
  cases.map(({ name, status, replay, recorded, replayed, error }) => ({
    name,
    status,
    replay,
    recorded,
    replayed,
    error,
  }));

describe('suite', () => {
  it('reads each cassette once, in order, just before its replay, and keeps none of them', async () => {
    const events: string[] = [];
    const loaded: Cassette[] = [];
    const result = await runSuite(freshEngine(), {
      cassettes: {
        names: files,
        load(name) {
          events.push(`load ${name}`);
          const cassette = readCassetteFile(name);
          loaded.push(cassette);
          return cassette;
        },
      },
      agent: build('baseline'),
      onCase: (done, total) => events.push(`case ${done}/${total}`),
    });
    expect(events).toEqual(files.flatMap((name, i) => [`load ${name}`, `case ${i + 1}/${files.length}`]));
    expect(result.cases.map((item) => item.name)).toEqual(files);
    // No case holds its cassette, nor any part of it.
    const held = reachable(result);
    const parts = loaded.flatMap((cassette) => [
      cassette,
      cassette.source,
      cassette.entries,
      cassette.messages,
      ...cassette.entries,
      ...cassette.messages,
    ]);
    expect(parts.filter((part) => held.has(part))).toEqual([]);
  });

  it('gives the same verdicts from a source as from an array, and the array form still takes a bare onCase', async () => {
    const fromSource = await runSuite(freshEngine(), {
      cassettes: { names: files, load: readCassetteFile },
      agent: build('baseline'),
    });
    const progress: number[] = [];
    const fromArray = await runSuite(freshEngine(), {
      cassettes: files.map((name) => ({ name, cassette: readCassetteFile(name) })),
      agent: build('baseline'),
      onCase: (done) => progress.push(done),
    });
    expect(verdicts(fromSource.cases)).toEqual(verdicts(fromArray.cases));
    expect(progress).toEqual(files.map((_, i) => i + 1));
    expect(fromSource.passed + fromSource.failed + fromSource.diverged + fromSource.invalid).toBe(files.length);
  });

  it('writes its replays to the store unless told not to keep them', async () => {
    const kept = freshEngine();
    const keptResult = await runSuite(kept, {
      cassettes: { names: files, load: readCassetteFile },
      agent: build('baseline'),
    });
    expect((await kept.listRuns()).map((run) => run.runId)).toEqual(keptResult.cases.map((item) => item.runId));
    const dropped = freshEngine();
    const droppedResult = await runSuite(dropped, {
      cassettes: { names: files, load: readCassetteFile },
      agent: build('baseline'),
      keepRuns: false,
    });
    expect(await dropped.listRuns()).toEqual([]);
    expect(verdicts(droppedResult.cases)).toEqual(verdicts(keptResult.cases));
    expect(droppedResult.cases.every((item) => item.runId !== null)).toBe(true);
  });

  it('makes a loader that refuses a cassette an invalid case and goes on; any other error is a bug and stops it', async () => {
    const [first, second] = files as [string, string];
    const refusing = { names: [first, 'missing.cassette.json', second], load: readCassetteFile };
    const result = await runSuite(freshEngine(), { cassettes: refusing, agent: build('baseline') });
    expect(result.cases.map((item) => item.status === 'invalid')).toEqual([false, true, false]);
    expect(result.cases[1]).toMatchObject({
      name: 'missing.cassette.json',
      error: { code: 'CASSETTE_INVALID' },
      runId: null,
    });
    expect(result.invalid).toBe(1);
    const broken = {
      names: [first],
      load: () => {
        throw new TypeError('a bug in the loader');
      },
    };
    await expect(runSuite(freshEngine(), { cassettes: broken, agent: build('baseline') })).rejects.toThrow(TypeError);
    const typed = {
      names: [first],
      load: () => {
        throw new ForkpointError('CASSETTE_EXPIRED', 'gone');
      },
    };
    expect((await runSuite(freshEngine(), { cassettes: typed, agent: build('baseline') })).cases[0]).toMatchObject({
      status: 'invalid',
      error: { code: 'CASSETTE_EXPIRED', message: 'gone' },
    });
  });
});
