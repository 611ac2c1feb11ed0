import { runSuite, verifyRun } from '../../src/workflows/index.js';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ReexecutionResult, ReplayOptions, ReplayResult } from '../../src/modes/index.js';
import type { World } from '../../src/world/index.js';
import { ForkpointError, isForkpointError } from '../../src/errors/index.js';
import { ReplayDivergence } from '../../src/analysis/index.js';
import { parseCassette, serializeCassette } from '../../src/cassette/index.js';
import { restoreCheckpoint } from '../../src/checkpoint/index.js';
import { build, withIncident, worldAt } from '../support/incident.js';

/** A world that fails the test if anything asks it. */
function tripwire(): { world: World; calls: () => number } {
  let calls = 0;
  const trip = (): never => {
    calls++;
    throw new Error('a live call was made');
  };
  return {
    world: {
      model: { respond: () => trip() },
      tools: { fetch_claim: trip, ocr_document: trip, estimate_repair: trip, fetch_policy: trip },
    },
    calls: () => calls,
  };
}

describe('strict replay of the incident', () => {
  it('reproduces the recording with baseline: failed at step 9, every step recorded, every hash and checkpoint equal', async () => {
    const { engine, incident } = await withIncident();
    const replay = await engine.replay({
      agent: build('baseline'),
      cassette: await engine.cassette(incident.runId),
      mode: 'strict',
    });
    expect(replay).toMatchObject({
      mode: 'replay:strict',
      status: 'failed',
      sourceRunId: '9b40c1d5',
      divergence: null,
      findings: [],
    });
    expect(replay.error).toMatchObject({ code: 'VALIDATION_FAILED', step: 9 });
    expect(replay.steps.map((step) => step.provenance)).toEqual(Array(9).fill('recorded'));
    expect(replay.steps.map((step) => step.requestHash)).toEqual(incident.steps.map((step) => step.requestHash));
    expect(replay.steps.map((step) => step.response)).toEqual(incident.steps.map((step) => step.response));
    for (let step = 0; step <= 9; step++) {
      expect(await restoreCheckpoint(engine.store, replay.runId, step)).toEqual(
        await restoreCheckpoint(engine.store, incident.runId, step),
      );
    }
  });

  it('gives the same result twice in a row', async () => {
    const { engine, incident } = await withIncident();
    const cassette = await engine.cassette(incident.runId);
    const first = await engine.replay({ agent: build('baseline'), cassette, mode: 'strict' });
    const second = await engine.replay({ agent: build('baseline'), cassette, mode: 'strict' });
    const strip = (run: ReplayResult) => ({
      ...run,
      runId: '',
      createdAt: '',
      finishedAt: '',
      retention: { ...run.retention, expiresAt: '', structuralExpiresAt: '' },
    });
    expect(strip(second)).toEqual(strip(first));
  });

  it('completes with patched (refer at step 4) and reports the unused entries as dropped calls, not misses', async () => {
    const { engine, incident } = await withIncident();
    const replay = await engine.replay({
      agent: build('patched'),
      cassette: await engine.cassette(incident.runId),
      mode: 'strict',
    });
    expect(replay.status).toBe('completed');
    expect(replay.outcome).toMatchObject({ decision: 'refer' });
    expect(replay.steps).toHaveLength(4);
    expect(replay.divergence).toBeNull();
    expect(replay.findings.map((finding) => [finding.classification, finding.step])).toEqual(
      [5, 6, 7, 8, 9].map((step) => ['dropped-call', step]),
    );
  });

  it('diverges with timestamped at step 1 on model#0, classified changed, with the diff on system', async () => {
    const { engine, incident } = await withIncident();
    const replay = await engine.replay({
      agent: build('timestamped'),
      cassette: await engine.cassette(incident.runId),
      mode: 'strict',
    });
    expect(replay.status).toBe('diverged');
    expect(replay.error).toMatchObject({ code: 'REPLAY_DIVERGED', step: 1 });
    expect(replay.divergence).toMatchObject({
      classification: 'changed',
      step: 1,
      kind: 'model',
      index: 0,
      recordedHashes: [incident.steps[0]!.requestHash],
      changed: ['system'],
    });
    expect(replay.divergence?.actualHash).not.toBe(incident.steps[0]!.requestHash);
    expect(replay.divergence?.diff[0]).toMatchObject({
      path: 'system',
      after: expect.stringContaining('Current time: '),
    });
    expect(replay.divergence?.message).toMatch(
      /^model#0 \(step 1\): request hash [0-9a-f]{16} not in cassette \(recorded: \[[0-9a-f]{16}\]\); changed: system$/,
    );
    expect(replay.steps).toEqual([]);
  });

  it('never reaches a live world, whatever the options say', async () => {
    const { engine, incident } = await withIncident();
    const { world, calls } = tripwire();
    const sneaky = {
      agent: build('timestamped'),
      cassette: await engine.cassette(incident.runId),
      mode: 'strict',
      onMiss: 'live',
      world: world,
    };
    const replay = await engine.replay(sneaky as unknown as ReplayOptions);
    expect(replay.status).toBe('diverged');
    expect(calls()).toBe(0);
  });

  it('refuses a cassette recorded by another agent, or hashed in another canonical form', async () => {
    const { engine, incident } = await withIncident();
    const cassette = await engine.cassette(incident.runId);
    for (const bad of [
      { ...cassette, agent: { ...cassette.agent, name: 'other-agent' } },
      { ...cassette, canonicalForm: 'forkpoint-canonical/0' },
    ]) {
      await expect(engine.replay({ agent: build('baseline'), cassette: bad, mode: 'strict' })).rejects.toSatisfy(
        (error) => isForkpointError(error, 'CASSETTE_INVALID'),
      );
    }
    expect(await engine.listRuns()).toHaveLength(1);
  });

  it('is stored as a run with its mode, build and source', async () => {
    const { engine, incident } = await withIncident();
    const replay = await engine.replay({
      agent: build('patched'),
      cassette: await engine.cassette(incident.runId),
      mode: 'strict',
    });
    expect(await engine.getRunSummary(replay.runId)).toMatchObject({
      mode: 'replay:strict',
      agent: { build: 'patched' },
      sourceRunId: '9b40c1d5',
      status: 'completed',
    });
    expect((await engine.getRun(replay.runId)).findings).toHaveLength(5);
  });
});

describe('fidelity replay', () => {
  it('stops at the first miss and reports it with the same detail', async () => {
    const { engine, incident } = await withIncident();
    const replay = await engine.replay({
      agent: build('timestamped'),
      cassette: await engine.cassette(incident.runId),
      mode: 'fidelity',
    });
    expect(replay).toMatchObject({
      mode: 'replay:fidelity',
      status: 'diverged',
      divergence: { classification: 'changed', kind: 'model', index: 0, changed: ['system'] },
    });
  });

  it('with onMiss live, asks the live world from the miss on, marks those steps live and reports every divergence', async () => {
    const { engine, incident } = await withIncident();
    let modelCalls = 0;
    const counted = ((): World => {
      const world = worldAt('2026-03-04');
      return { ...world, model: { respond: (request) => (modelCalls++, world.model.respond(request)) } };
    })();
    const replay = await engine.replay({
      agent: build('timestamped'),
      cassette: await engine.cassette(incident.runId),
      mode: 'fidelity',
      onMiss: 'live',
      world: counted,
      sideEffects: { tools: { estimate_repair: 'live' } },
    });
    expect(replay.steps.map((step) => step.provenance)).toEqual(Array(9).fill('live'));
    expect(replay.steps.map((step) => step.sideEffect)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      false,
      false,
      false,
    ]);
    expect(modelCalls).toBe(5);
    const divergences = replay.findings.filter((finding) => finding.classification !== 'dropped-call');
    expect(divergences.map((finding) => `${finding.kind}#${finding.index}`)).toEqual([
      'model#0',
      'model#1',
      'model#2',
      'model#3',
      'model#4',
    ]);
    expect(divergences.every((finding) => finding.changed.includes('system'))).toBe(true);
    expect(replay.status).toBe('failed');
  });

  it('with onMiss live, reports each fact once: a position asked with another hash is not also a dropped call', async () => {
    const { engine, incident } = await withIncident();
    const replay = await engine.replay({
      agent: build('timestamped'),
      cassette: await engine.cassette(incident.runId),
      mode: 'fidelity',
      onMiss: 'live',
      world: worldAt('2026-03-04'),
      sideEffects: { tools: { estimate_repair: 'simulate' } },
    });
    // Every recorded position was asked for: the five model calls with another hash, the four tool calls with the recorded one.
    const facts = replay.findings.map((finding) => [
      finding.classification,
      `${finding.kind}#${finding.index}`,
      finding.step,
    ]);
    expect(facts).toEqual([0, 1, 2, 3, 4].map((index) => ['changed', `model#${index}`, 2 * index + 1]));
    expect((await engine.getRun(replay.runId)).findings).toHaveLength(5);
  });
});

describe('structural replay', () => {
  it('diverges on the first recorded call a build that stops early never made, and lists every one as dropped', async () => {
    const { engine, incident } = await withIncident();
    const replay = await engine.replay({
      agent: build('patched'),
      cassette: await engine.cassette(incident.runId, 'structural'),
      mode: 'structural',
    });
    expect(replay).toMatchObject({
      mode: 'replay:structural',
      status: 'diverged',
      error: { code: 'REPLAY_DIVERGED', step: 5 },
    });
    expect(replay.steps).toHaveLength(4);
    expect(replay.divergence).toMatchObject({
      classification: 'dropped-call',
      step: 5,
      kind: 'model',
      index: 2,
      actualHash: null,
    });
    expect(replay.findings.map((finding) => [finding.classification, finding.step])).toEqual(
      [5, 6, 7, 8, 9].map((step) => ['dropped-call', step]),
    );
  });
});

describe('cassette files', () => {
  it('round-trip: replaying the exported file gives the same result as replaying the database', async () => {
    const { engine, incident } = await withIncident();
    const text = serializeCassette(await engine.cassette(incident.runId));
    expect(serializeCassette(parseCassette(text, 'incident.json'))).toBe(text);
    const fromFile = await engine.replay({
      agent: build('baseline'),
      cassette: parseCassette(text, 'incident.json'),
      cassetteFile: 'incident.json',
      mode: 'strict',
    });
    const fromDb = await engine.replay({
      agent: build('baseline'),
      cassette: await engine.cassette(incident.runId),
      mode: 'strict',
    });
    expect(fromFile.steps).toEqual(fromDb.steps);
    expect([fromFile.status, fromFile.error, fromFile.sourceCassette]).toEqual([
      fromDb.status,
      fromDb.error,
      'incident.json',
    ]);
  });

  it('is stable and diffable: sorted keys, one entry per step, messages once', async () => {
    const { engine, incident } = await withIncident();
    const text = serializeCassette(await engine.cassette(incident.runId));
    const parsed = JSON.parse(text) as {
      format: string;
      entries: { step: number; kind: string; request: { messages?: string[] } }[];
      messages: { digest: string }[];
    };
    expect(Object.keys(parsed)).toEqual([
      'agent',
      'canonicalForm',
      'entries',
      'expiresAt',
      'format',
      'messages',
      'source',
      'tier',
    ]);
    expect(parsed.format).toBe('forkpoint-cassette/2');
    expect(parsed.entries.map((entry) => entry.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(parsed.messages).toHaveLength(10);
    const digests = new Set(parsed.messages.map((item) => item.digest));
    const referenced = parsed.entries
      .filter((entry) => entry.kind === 'model')
      .flatMap((entry) => entry.request.messages ?? []);
    expect(referenced.length).toBeGreaterThan(digests.size);
    expect(referenced.every((digest) => digests.has(digest))).toBe(true);
  });

  it('reads a file of format 1, which named the world date source.at and a request hash hash, as the same cassette', async () => {
    const { engine, incident } = await withIncident();
    const cassette = await engine.cassette(incident.runId);
    const current = serializeCassette(cassette);
    const older = current
      .replace('"format": "forkpoint-cassette/2"', '"format": "forkpoint-cassette/1"')
      .replace('"worldAt": "2026-03-04"', '"at": "2026-03-04"')
      .replaceAll('"requestHash": ', '"hash": ');
    expect(older).not.toMatch(/worldAt|requestHash/);
    const read = parseCassette(older, 'older.json');
    expect(read).toEqual(cassette);
    expect(read.source.worldAt).toBe('2026-03-04');
    expect(serializeCassette(read)).toBe(current);
  });

  it.each([
    ['truncated JSON', (text: string) => text.slice(0, text.length / 2), /not valid JSON/],
    [
      'an unknown format version',
      (text: string) => text.replace('forkpoint-cassette/2', 'forkpoint-cassette/9'),
      /format is "forkpoint-cassette\/9"/,
    ],
    [
      'a malformed entry',
      (text: string) => text.replace(/"requestHash": "[0-9a-f]{16}"/, '"requestHash": "nope"'),
      /entries\[0\] has no 16-hex requestHash/,
    ],
    [
      'a response of the wrong shape',
      (text: string) => text.replace('"stopReason": "tool_use"', '"stopReason": 7'),
      /not a model response/,
    ],
    ['a depth bomb', () => `${'['.repeat(5000)}${']'.repeat(5000)}`, /nested deeper/],
    ['not an object', () => '[1,2,3]', /not a JSON object/],
  ])('refuses %s with CASSETTE_INVALID', async (_name, corrupt, message) => {
    const { engine, incident } = await withIncident();
    const text = corrupt(serializeCassette(await engine.cassette(incident.runId)));
    try {
      parseCassette(text, 'bad.json');
      expect.unreachable();
    } catch (error) {
      expect(isForkpointError(error, 'CASSETTE_INVALID')).toBe(true);
      expect((error as Error).message).toMatch(message);
    }
  });
});

describe('re-execution', () => {
  it('is a second run against the world at another date, labelled as such, every step live', async () => {
    const { engine, incident } = await withIncident();
    const again = await engine.reexecute({
      sourceRunId: incident.runId,
      agent: build('baseline'),
      world: worldAt('2026-03-09'),
      sideEffects: { tools: { estimate_repair: 'live' } },
    });
    expect(again).toMatchObject({
      mode: 'reexecution',
      status: 'completed',
      sourceRunId: '9b40c1d5',
      worldAt: '2026-03-09',
      input: { claimId: 'CLM-91077' },
    });
    expect(again.outcome).toMatchObject({ decision: 'approve' });
    expect(again.steps.every((step) => step.provenance === 'live')).toBe(true);
    // The one side effect it was allowed by name is marked as such; every other step only read the world.
    expect(again.steps.filter((step) => step.sideEffect).map((step) => `${step.kind}#${step.index}`)).toEqual([
      'estimate_repair#0',
    ]);
  });

  it('has a result type that TypeScript will not take for a replay', () => {
    expectTypeOf<ReexecutionResult['mode']>().toEqualTypeOf<'reexecution'>();
    expectTypeOf<ReplayResult['mode']>().toEqualTypeOf<'replay:strict' | 'replay:fidelity' | 'replay:structural'>();
    const needsReplay = (result: ReplayResult): string => result.mode;
    const reexecution = {} as ReexecutionResult;
    // @ts-expect-error a re-execution is not a replay
    expect(() => needsReplay(reexecution)).not.toThrow();
  });
});

describe('the divergence of a replay result', () => {
  it('is a ReplayDivergence, returned with status diverged, whose fields are the finding and which the caller may throw', async () => {
    const { engine, incident } = await withIncident();
    const replay = await engine.replay({
      agent: build('timestamped'),
      cassette: await engine.cassette(incident.runId),
      mode: 'strict',
    });
    expect(replay.status).toBe('diverged');
    const divergence = replay.divergence;
    expect(divergence).toBeInstanceOf(ReplayDivergence);
    expect(divergence).toBeInstanceOf(ForkpointError);
    expect(isForkpointError(divergence, 'REPLAY_DIVERGED')).toBe(true);
    const [stored] = (await engine.getRun(replay.runId)).findings;
    expect(divergence).toMatchObject({
      code: 'REPLAY_DIVERGED',
      runId: replay.runId,
      step: 1,
      kind: 'model',
      index: 0,
      classification: 'changed',
      actualHash: stored!.actualHash,
      recordedHashes: [incident.steps[0]!.requestHash],
      changed: ['system'],
      diff: stored!.diff,
      message: stored!.message,
      divergence: stored,
    });
    expect(() => {
      if (replay.status === 'diverged' && replay.divergence !== null) throw replay.divergence;
    }).toThrow(ReplayDivergence);
  });

  it('serialises as the plain finding the run row stores, in every mode', async () => {
    const { engine, incident } = await withIncident();
    const replays = [
      await engine.replay({
        agent: build('timestamped'),
        cassette: await engine.cassette(incident.runId),
        mode: 'strict',
      }),
      await engine.replay({
        agent: build('timestamped'),
        cassette: await engine.cassette(incident.runId),
        mode: 'fidelity',
        onMiss: 'live',
        world: worldAt('2026-03-04'),
      }),
      await engine.replay({
        agent: build('patched'),
        cassette: await engine.cassette(incident.runId, 'structural'),
        mode: 'structural',
      }),
    ];
    for (const replay of replays) {
      const [stored] = (await engine.getRun(replay.runId)).findings;
      expect(replay.divergence).toBeInstanceOf(ReplayDivergence);
      expect(replay.divergence!.toJSON()).toEqual(stored);
      expect(Object.getPrototypeOf(replay.divergence!.toJSON())).toBe(Object.prototype);
      expect(JSON.parse(JSON.stringify(replay.divergence))).toEqual(stored);
      // In the order the transport writes a finding, as `--json` printed it before it was an error.
      expect(Object.keys(JSON.parse(JSON.stringify(replay.divergence)) as object)).toEqual([
        'classification',
        'step',
        'kind',
        'index',
        'actualHash',
        'recordedHashes',
        'changed',
        'diff',
        'message',
      ]);
      // The findings stay as stored: plain objects, not errors.
      expect(replay.findings.some((finding) => finding instanceof Error)).toBe(false);
    }
  });

  it('is the same ReplayDivergence in a suite case and in a verification, serialised the same way', async () => {
    const { engine, incident } = await withIncident();
    const suite = await runSuite(engine, {
      cassettes: [{ name: 'incident', cassette: await engine.cassette(incident.runId) }],
      agent: build('timestamped'),
    });
    const verified = await verifyRun(engine, {
      runId: incident.runId,
      candidate: build('timestamped'),
      baseline: build('baseline'),
      mode: 'replay',
    });
    for (const divergence of [suite.cases[0]!.divergence, verified.divergence]) {
      expect(divergence).toBeInstanceOf(ReplayDivergence);
      expect(JSON.parse(JSON.stringify(divergence))).toEqual((await engine.getRun(divergence!.runId)).findings[0]);
    }
  });
});

describe('the result of a replay', () => {
  it('shows exactly the steps the store holds for it, in every mode', async () => {
    const { engine, incident } = await withIncident();
    const results = [
      await engine.replay({
        agent: build('baseline'),
        cassette: await engine.cassette(incident.runId),
        mode: 'strict',
      }),
      await engine.replay({ agent: build('patched'), cassette: await engine.cassette(incident.runId), mode: 'strict' }),
      await engine.replay({
        agent: build('timestamped'),
        cassette: await engine.cassette(incident.runId),
        mode: 'fidelity',
      }),
      await engine.replay({
        agent: build('baseline'),
        cassette: await engine.cassette(incident.runId, 'structural'),
        mode: 'structural',
      }),
    ];
    for (const result of results) {
      const { divergence: _divergence, ...view } = result;
      expect(JSON.parse(JSON.stringify(view))).toEqual(JSON.parse(JSON.stringify(await engine.getRun(result.runId))));
    }
    expect(results.map((result) => result.steps.length)).toEqual([9, 4, 0, 9]);
  });
});
