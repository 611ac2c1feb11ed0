import { describe, expect, it } from 'vitest';
import type { World } from '../../src/world/index.js';
import type { ForkOverride } from '../../src/fork/index.js';
import { ForkpointError } from '../../src/errors/index.js';
import { forkpointMatchers } from '../../src/testing/index.js';
import { build, withIncident, worldAt } from '../support/incident.js';
import { thrown } from '../support/thrown.js';

expect.extend(forkpointMatchers);

// The incident (baseline, 2026-03-04: 9 steps, VALIDATION_FAILED at step 9) and its strict replays: patched
// refers at step 4 without estimating; baseline calls estimate_repair at step 6, as recorded.
const { engine, incident } = await withIncident();
const cassette = await engine.cassette(incident.runId);
const patchedReplay = await engine.replay({ agent: build('patched'), cassette, mode: 'strict' });
const baselineReplay = await engine.replay({ agent: build('baseline'), cassette, mode: 'strict' });

/** The message of the assertion error `assertion` throws; fails the test when it throws none. */
function failureOf(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    if (error instanceof Error && !(error instanceof ForkpointError)) return error.message;
    throw error;
  }
  throw new Error('the assertion passed');
}

// The marked row of the printed step table: `>` in place of the indent, then the step number and the call.
const marked = (step: number, call: string) => new RegExp(`^> +${step} {2}${call} `, 'm');
const TABLE_HEADER = /^ {2}step {2}call +from +request +response$/m;

describe('toHaveCalled', () => {
  it("passes .not on patched's replay, and fails .not on baseline's, naming step 6 and the model step that asked at 5", () => {
    expect(patchedReplay).not.toHaveCalled('estimate_repair');
    const message = failureOf(() => {
      expect(baselineReplay).not.toHaveCalled('estimate_repair');
    });
    expect(message).toMatch(
      /^step 6 estimate_repair#0 \(asked for by model#2 at step 5\) was called; expected it never to be\n\n/,
    );
    // The trajectory as `show` prints it: the replay's headline, the step table, the breaking step marked.
    expect(message).toContain(`replay:strict · run ${baselineReplay.runId} · claims-triage/baseline`);
    expect(message).toMatch(TABLE_HEADER);
    expect(message).toMatch(marked(6, 'estimate_repair#0'));
    expect(message).toMatch(/^ +9 {2}model#4 +recorded /m);
    expect(message.match(/^>/gm)).toHaveLength(1);
  });

  it('passes on a call the run made and fails on one it never made, showing the trajectory it did make', () => {
    expect(incident).toHaveCalled('fetch_policy');
    const message = failureOf(() => {
      expect(patchedReplay).toHaveCalled('fetch_policy');
    });
    expect(message).toMatch(/^fetch_policy was never called in 4 steps; expected it to be\n/);
    expect(message).toMatch(/^ +4 {2}ocr_document#0 +recorded /m);
    expect(message).not.toMatch(/^>/m);
  });

  it('counts calls with `times`, naming the first call past the count', () => {
    expect(incident).toHaveCalled('ocr_document', { times: 1 });
    expect(incident).not.toHaveCalled('ocr_document', { times: 2 });
    expect(patchedReplay).toHaveCalled('estimate_repair', { times: 0 });
    expect(
      failureOf(() => {
        expect(incident).toHaveCalled('ocr_document', { times: 2 });
      }),
    ).toMatch(/^ocr_document was called once \(step 4\) in 9 steps; expected exactly twice\n/);
    expect(
      failureOf(() => {
        expect(incident).toHaveCalled('estimate_repair', { times: 0 });
      }),
    ).toMatch(/^step 6 estimate_repair#0 \(asked for by model#2 at step 5\) was called; expected it never to be/);
    expect(
      failureOf(() => {
        expect(incident).not.toHaveCalled('ocr_document', { times: 1 });
      }),
    ).toMatch(/^ocr_document was called once \(step 4\); expected any other number of calls/);
  });

  it('refuses model and approval steps as tools, with .not too, since neither is a call', () => {
    expect(thrown(() => expect(incident).not.toHaveCalled('model')).code).toBe('USAGE');
    expect(thrown(() => expect(incident).not.toHaveCalled('approval')).message).toMatch(/not tool calls/);
  });
});

describe('toHaveTrajectory', () => {
  const baselineCalls = ['fetch_claim', 'ocr_document', 'estimate_repair', 'fetch_policy'];

  it('strict: passes on the calls in order, and names the first step out of place', () => {
    expect(baselineReplay).toHaveTrajectory(baselineCalls, { order: 'strict' });
    expect(patchedReplay).toHaveTrajectory(['fetch_claim', 'ocr_document']);
    const message = failureOf(() => {
      expect(baselineReplay).toHaveTrajectory(['fetch_claim', 'ocr_document', 'fetch_policy']);
    });
    expect(message).toMatch(/^step 6: expected fetch_policy \(call 3 of 3\), got estimate_repair#0\n/);
    expect(message).toContain('\n  expected (strict): fetch_claim, ocr_document, fetch_policy\n');
    expect(message).toContain('\n  called: fetch_claim#0, ocr_document#0, estimate_repair#0, fetch_policy#0\n');
    expect(message).toMatch(marked(6, 'estimate_repair#0'));
  });

  it('strict: says where a run stopped short, and which call ran past the list', () => {
    expect(
      failureOf(() => {
        expect(patchedReplay).toHaveTrajectory(baselineCalls);
      }),
    ).toMatch(/^the run ended at step 4 after 2 calls; expected estimate_repair next \(call 3 of 4\)\n/);
    const message = failureOf(() => {
      expect(baselineReplay).toHaveTrajectory(baselineCalls.slice(0, 3));
    });
    expect(message).toMatch(/^step 8 fetch_policy#0 \(asked for by model#3 at step 7\) is call 4, past the 3 expected/);
    expect(message).toMatch(marked(8, 'fetch_policy#0'));
  });

  it('strict: .not passes on another order and fails on the same one', () => {
    expect(baselineReplay).not.toHaveTrajectory([...baselineCalls].reverse());
    expect(
      failureOf(() => {
        expect(baselineReplay).not.toHaveTrajectory(baselineCalls);
      }),
    ).toMatch(/^the run made exactly the expected calls, in order; expected it not to\n/);
  });

  it('unordered: passes on the same calls in another order, and names the first call beyond them', () => {
    expect(baselineReplay).toHaveTrajectory([...baselineCalls].reverse(), { order: 'unordered' });
    expect(baselineReplay).not.toHaveTrajectory(['fetch_claim', 'ocr_document'], { order: 'unordered' });
    const message = failureOf(() => {
      expect(baselineReplay).toHaveTrajectory(['fetch_policy', 'ocr_document', 'fetch_claim', 'ocr_document'], {
        order: 'unordered',
      });
    });
    expect(message).toMatch(
      /^step 6 estimate_repair#0 \(asked for by model#2 at step 5\) is a call beyond the expected ones \(estimate_repair is not expected\); and by its last step \(9\) the run had not called ocr_document twice \(it was called once\)\n/,
    );
    expect(message).toMatch(marked(6, 'estimate_repair#0'));
  });

  it('subset: passes when every call is among the expected ones, and names the first that is not', () => {
    expect(patchedReplay).toHaveTrajectory(baselineCalls, { order: 'subset' });
    expect(baselineReplay).not.toHaveTrajectory(['fetch_claim', 'ocr_document', 'fetch_policy'], { order: 'subset' });
    const message = failureOf(() => {
      expect(baselineReplay).toHaveTrajectory(['fetch_claim', 'ocr_document', 'fetch_policy'], { order: 'subset' });
    });
    expect(message).toMatch(
      /^step 6 estimate_repair#0 .* is a call beyond the expected ones \(estimate_repair is not expected\)\n/,
    );
    expect(
      failureOf(() => {
        expect(patchedReplay).not.toHaveTrajectory(baselineCalls, { order: 'subset' });
      }),
    ).toMatch(/^every call the run made is among the expected ones; expected it not to\n/);
  });

  it('superset: passes when every expected call was made, and names what was not by the last step', () => {
    expect(baselineReplay).toHaveTrajectory(['fetch_policy', 'fetch_claim'], { order: 'superset' });
    expect(patchedReplay).not.toHaveTrajectory(['fetch_policy'], { order: 'superset' });
    const message = failureOf(() => {
      expect(patchedReplay).toHaveTrajectory(['fetch_claim', 'fetch_policy', 'estimate_repair'], {
        order: 'superset',
      });
    });
    expect(message).toMatch(/^by its last step \(4\) the run had not called fetch_policy or estimate_repair\n/);
  });

  it('refuses an order it does not know, and a model step in the list', () => {
    expect(thrown(() => expect(incident).toHaveTrajectory(baselineCalls, { order: 'prefix' as 'strict' })).code).toBe(
      'USAGE',
    );
    expect(thrown(() => expect(incident).not.toHaveTrajectory(['model', 'fetch_claim'])).code).toBe('USAGE');
  });
});

describe('toHaveStepsAtMost', () => {
  it('passes on the 9-step incident at 9, and names the step past a limit of 8', () => {
    expect(incident).toHaveStepsAtMost(9);
    expect(patchedReplay).toHaveStepsAtMost(4);
    const message = failureOf(() => {
      expect(incident).toHaveStepsAtMost(8);
    });
    expect(message).toMatch(/^step 9 model#4 is past the limit of 8 \(the run made 9 steps\)\n/);
    expect(message).toMatch(marked(9, 'model#4'));
  });

  it('.not passes over the limit and fails within it', () => {
    expect(incident).not.toHaveStepsAtMost(8);
    expect(
      failureOf(() => {
        expect(incident).not.toHaveStepsAtMost(9);
      }),
    ).toMatch(/^the run made 9 steps, within the limit of 9; expected more than 9\n/);
  });
});

describe('toHaveCalledWith', () => {
  it('matches an input deeply, or through an asymmetric matcher', () => {
    expect(incident).toHaveCalledWith('ocr_document', { document_id: 'DOC-77120' });
    expect(incident).toHaveCalledWith('estimate_repair', expect.objectContaining({ damage_area_cm2: 205 }));
    // Deep equality is exact: a part of the input is not the input.
    expect(incident).not.toHaveCalledWith('estimate_repair', { damage_area_cm2: 205 });
  });

  it('names the call whose input did not match, and shows the expected matcher as vitest prints it', () => {
    const message = failureOf(() => {
      expect(baselineReplay).toHaveCalledWith('estimate_repair', expect.objectContaining({ damage_area_cm2: 2050 }));
    });
    expect(message).toMatch(
      /^step 6 estimate_repair#0 \(asked for by model#2 at step 5\) was called with \{"damage_area_cm2": 205, "peril": "hail"\}; expected ObjectContaining \{"damage_area_cm2": 2050\}\n/,
    );
    expect(message).toMatch(marked(6, 'estimate_repair#0'));
    expect(
      failureOf(() => {
        expect(patchedReplay).toHaveCalledWith('estimate_repair', { damage_area_cm2: 205, peril: 'hail' });
      }),
    ).toMatch(
      /^estimate_repair was never called in 4 steps; expected a call with \{"damage_area_cm2": 205, "peril": "hail"\}/,
    );
  });

  it('.not names the first call that matched', () => {
    expect(patchedReplay).not.toHaveCalledWith('estimate_repair', expect.anything());
    const message = failureOf(() => {
      expect(baselineReplay).not.toHaveCalledWith('estimate_repair', expect.objectContaining({ peril: 'hail' }));
    });
    expect(message).toMatch(
      /^step 6 estimate_repair#0 .* was called with \{"damage_area_cm2": 205, "peril": "hail"\}; expected no call with ObjectContaining \{"peril": "hail"\}\n/,
    );
  });

  it("refuses a structural replay's calls, whose inputs are shapes", async () => {
    const structural = await engine.replay({
      agent: build('baseline'),
      cassette: await engine.cassette(incident.runId, 'structural'),
      mode: 'structural',
    });
    expect(structural).toHaveTrajectory(['fetch_claim', 'ocr_document', 'estimate_repair', 'fetch_policy']);
    const refused = thrown(() => expect(structural).not.toHaveCalledWith('ocr_document', { document_id: 'X' }));
    expect(refused).toMatchObject({ code: 'USAGE' });
    expect(refused.message).toMatch(/holds shapes \(structural tier\), not inputs/);
  });
});

describe('what the trajectory matchers read', () => {
  const corrected: ForkOverride = {
    kind: 'tool-merge',
    patch: { fields: { damage_area_cm2: { value: 2050, confidence: 0.97 } } },
  };

  it("refuses a fork's result, which holds only its own steps, and reads the fork's whole run", async () => {
    const fork = await engine.fork({
      parentRunId: incident.runId,
      atStep: 4,
      override: corrected,
      agent: build('baseline'),
      world: worldAt('2026-03-04'),
      sideEffects: { tools: { estimate_repair: 'simulate' } },
    });
    // A .not would pass on the inherited calls it cannot see: both ways refuse.
    for (const assertion of [
      () => expect(fork).toHaveCalled('fetch_claim'),
      () => expect(fork).not.toHaveCalled('fetch_claim'),
    ]) {
      const refused = thrown(assertion);
      expect(refused.code).toBe('USAGE');
      expect(refused.message).toMatch(
        new RegExp(
          `holds only the steps the fork made, and its trajectory starts with its parent's steps 1\\.\\.3\\. Check the whole run: expect\\(await engine\\.getRun\\('${fork.runId}'\\)\\)`,
        ),
      );
    }
    const forkRun = await engine.getRun(fork.runId);
    expect(forkRun).toHaveTrajectory(['fetch_claim', 'ocr_document', 'estimate_repair', 'fetch_policy']);
    expect(forkRun).toHaveCalledWith('estimate_repair', expect.objectContaining({ damage_area_cm2: 2050 }));
    expect(forkRun).not.toHaveCalledWith('estimate_repair', expect.objectContaining({ damage_area_cm2: 205 }));
  });

  it('reads a resumed run, whose printed steps say which attempt wrote them', async () => {
    const world = worldAt('2026-03-04', 20260304);
    let calls = 0;
    const dropping: World = {
      ...world,
      model: {
        respond: (request) =>
          ++calls === 3
            ? Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
            : world.model.respond(request),
      },
    };
    const stopped = await engine.record({ agent: build('baseline'), world: dropping, input: { claimId: 'CLM-91077' } });
    expect(stopped.steps).toHaveLength(4);
    const resumed = await engine.resume({
      runId: stopped.runId,
      agent: build('baseline'),
      world: worldAt('2026-03-04', 20260304),
      sideEffects: { tools: { estimate_repair: 'live' } },
    });
    expect(resumed).toHaveTrajectory(['fetch_claim', 'ocr_document', 'estimate_repair', 'fetch_policy']);
    const message = failureOf(() => {
      expect(resumed).not.toHaveCalled('estimate_repair');
    });
    expect(message).toMatch(/^ {2}step {2}attempt {2}call /m);
    expect(message).toMatch(/^> +6 +2 {2}estimate_repair#0 /m);
  });

  it('refuses what is not a run, and a run whose steps have expired', () => {
    expect(thrown(() => expect({ runId: 'x' }).not.toHaveCalled('fetch_claim')).code).toBe('USAGE');
    expect(thrown(() => expect('9b40c1d5').not.toHaveCalled('fetch_claim')).code).toBe('USAGE');
    const expired = { ...incident, steps: [], retention: { ...incident.retention, expired: true } };
    const refused = thrown(() => expect(expired).not.toHaveCalled('estimate_repair'));
    expect(refused.code).toBe('CASSETTE_EXPIRED');
    expect(refused.message).toMatch(/run 9b40c1d5's full tier has expired: its steps are gone/);
  });

  it('reads the steps themselves, printed without a headline', () => {
    expect(incident.steps).toHaveCalled('estimate_repair');
    const message = failureOf(() => {
      expect(incident.steps).not.toHaveCalled('estimate_repair');
    });
    expect(message).not.toContain('record · run');
    expect(message).toMatch(/\n\n {2}step {2}call /);
  });
});
