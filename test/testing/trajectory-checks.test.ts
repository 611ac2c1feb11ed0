import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer } from '../../src/conversation/index.js';
import { approvalRequestOf, approvalResponseOf } from '../../src/conversation/index.js';
import type { JsonObject } from '../../src/json/index.js';
import type { StepView } from '../../src/read/index.js';
import type { World } from '../../src/world/index.js';
import {
  checkCalled,
  checkCalledWith,
  checkStepsAtMost,
  checkTrajectory,
  printTrajectory,
  toolCallsOf,
  trajectoryOf,
} from '../../src/testing/index.js';
import { build, withIncident, worldAt } from '../support/incident.js';
import { thrown } from '../support/thrown.js';

const step = (fields: Pick<StepView, 'step' | 'kind' | 'index' | 'request' | 'response'> & Partial<StepView>) =>
  ({
    requestHash: `${fields.kind}${fields.index}`.padEnd(16, '0').slice(0, 16),
    provenance: 'live',
    attempt: 1,
    sideEffect: false,
    ...fields,
  }) satisfies StepView;
const asks = (n: number, index: number, tool: string, input: JsonObject) =>
  step({
    step: n,
    kind: 'model',
    index,
    request: { messages: [] },
    response: { content: [{ type: 'tool_use', id: `toolu_${n}`, name: tool, input }], stopReason: 'tool_use' },
  });
const answer = (approved: boolean, hash: string): ApprovalAnswer => ({
  approved,
  by: 'dana@example.com',
  at: '2026-03-04T10:00:00.000Z',
  note: approved ? null : 'already refunded',
  requestHash: hash,
});
// A person's answer at step n about the refund the model asked for at step `askedAt`.
const answered = (n: number, index: number, askedAt: number, input: JsonObject, approved: boolean, hash: string) =>
  step({
    step: n,
    kind: 'approval',
    index,
    provenance: 'human',
    request: approvalRequestOf({ type: 'tool_use', id: `toolu_${askedAt}`, name: 'refund', input }, hash),
    response: approvalResponseOf(answer(approved, hash)),
  });

// A refund desk's run as the approval flow stores it: the model asks for a refund, a person approves it and
// the refund is made; it asks for a second, a person rejects it and the call never happens.
const first = { order: 'A-1', amount: 40 };
const second = { order: 'A-2', amount: 40 };
const approvals: StepView[] = [
  asks(1, 0, 'refund', first),
  answered(2, 0, 1, first, true, 'aaaa000000000001'),
  step({
    step: 3,
    kind: 'refund',
    index: 0,
    sideEffect: true,
    request: { tool: 'refund', input: first },
    response: { output: { refunded: 40 }, isError: false },
  }),
  asks(4, 1, 'refund', second),
  answered(5, 1, 4, second, false, 'aaaa000000000002'),
  step({
    step: 6,
    kind: 'model',
    index: 2,
    request: { messages: [] },
    response: { content: [{ type: 'text', text: 'Refunded A-1; A-2 was refused.' }], stopReason: 'end_turn' },
  }),
];

describe('approval steps', () => {
  it('are not calls: an approved call is its own step, a rejected one never happens', () => {
    expect(toolCallsOf(approvals)).toEqual([{ step: 3, tool: 'refund', index: 0, input: first }]);
    expect(checkTrajectory(approvals, ['refund']).pass).toBe(true);
    expect(checkCalled(approvals, 'refund', { times: 1 }).pass).toBe(true);
    expect(checkCalledWith(approvals, 'refund', second)).toMatchObject({
      pass: false,
      step: 3,
      message: `step 3 refund#0 (asked for by model#0 at step 1) was called with {"order":"A-1","amount":40}; expected {"order":"A-2","amount":40}`,
    });
  });

  it('cannot be checked as a tool, even with .not', () => {
    expect(thrown(() => checkCalled(approvals, 'approval')).message).toMatch(/approval steps are a person's answer/);
    expect(thrown(() => checkTrajectory(approvals, ['approval', 'refund'], { order: 'superset' })).code).toBe('USAGE');
  });

  it('stand in the printed trajectory as the person who answered', () => {
    const printed = printTrajectory(trajectoryOf(approvals, { payloads: false }), 3);
    expect(printed.split('\n')).toHaveLength(7);
    expect(printed).toMatch(/^ +2 {2}approval#0 +✋ human +\S+ +approved refund#0 .* by dana@example\.com$/m);
    expect(printed).toMatch(/^ +5 {2}approval#1 +✋ human +\S+ +rejected refund#1 .*: "already refunded"$/m);
    expect(printed).toMatch(/^> +3 {2}refund#0 +live side effect /m);
  });
});

describe('a retried call', () => {
  it('counts once per attempt, as the steps and the cassette keys do', async () => {
    // The OCR service times out once, and the build's retryTool asks again: ocr_document#0 failed, #1 answered.
    const world = worldAt('2026-03-04');
    let ocr = 0;
    const flaky: World = {
      ...world,
      tools: {
        ...world.tools,
        ocr_document: (input) => {
          ocr += 1;
          if (ocr === 1) throw Object.assign(new Error('ocr_document timed out after 30 s'), { retryable: true });
          const real = world.tools.ocr_document;
          if (real === undefined) throw new Error('the claims world has no ocr_document');
          return real(input);
        },
      },
    };
    const { engine } = await withIncident();
    const run = await engine.record({ agent: build('baseline'), world: flaky, input: { claimId: 'CLM-91077' } });
    expect(run.steps.map((each) => `${each.kind}#${each.index}`)).toEqual([
      'model#0',
      'fetch_claim#0',
      'model#1',
      'ocr_document#0',
      'ocr_document#1',
      'model#2',
      'estimate_repair#0',
      'model#3',
      'fetch_policy#0',
      'model#4',
    ]);
    expect(run.steps[3]?.response).toMatchObject({ isError: true });

    const withRetry = ['fetch_claim', 'ocr_document', 'ocr_document', 'estimate_repair', 'fetch_policy'];
    expect(checkTrajectory(run.steps, withRetry).pass).toBe(true);
    expect(checkCalled(run.steps, 'ocr_document', { times: 2 }).pass).toBe(true);
    expect(
      checkTrajectory(run.steps, ['fetch_claim', 'ocr_document', 'estimate_repair', 'fetch_policy']),
    ).toMatchObject({
      pass: false,
      step: 5,
      message: expect.stringMatching(/^step 5: expected estimate_repair \(call 3 of 4\), got ocr_document#1\n/),
    });
    // Its model asked once: the retry is of the call model#1 asked for at step 3.
    expect(checkCalled(run.steps, 'ocr_document', { times: 1 }).message).toMatch(
      /^step 5 ocr_document#1 \(asked for by model#1 at step 3\) was call 2 to ocr_document; expected exactly once \(step 4\)/,
    );
    expect(checkStepsAtMost(run.steps, 9)).toMatchObject({
      pass: false,
      step: 10,
      message: 'step 10 model#4 is past the limit of 9 (the run made 10 steps)',
    });
  });
});

describe('the checks on the incident steps', () => {
  it('match subset and superset one call per expected entry, as agentevals does', async () => {
    const { incident } = await withIncident();
    const calls = ['fetch_claim', 'ocr_document', 'estimate_repair', 'fetch_policy'];
    // The run called ocr_document once: a list holding it twice still bounds every call the run made...
    expect(checkTrajectory(incident.steps, [...calls, 'ocr_document'], { order: 'subset' }).pass).toBe(true);
    // ...but the run did not make every call the list holds.
    expect(checkTrajectory(incident.steps, [...calls, 'ocr_document'], { order: 'superset' })).toMatchObject({
      pass: false,
      step: null,
      message: expect.stringMatching(
        /^by its last step \(9\) the run had not called ocr_document twice \(it was called once\)\n/,
      ),
    });
    // A list with one ocr_document fewer leaves the run's one call beyond the expected ones.
    expect(checkTrajectory(incident.steps, ['fetch_claim', 'ocr_document'], { order: 'subset' })).toMatchObject({
      pass: false,
      step: 6,
    });
    expect(
      checkTrajectory(incident.steps, ['ocr_document', 'fetch_claim', 'ocr_document'], { order: 'subset' }),
    ).toMatchObject({
      pass: false,
      step: 6,
      message: expect.stringMatching(/^step 6 estimate_repair#0 .* \(estimate_repair is not expected\)\n/),
    });
    expect(checkTrajectory(incident.steps, [], { order: 'subset' })).toMatchObject({
      pass: false,
      step: 2,
      message: expect.stringMatching(/^step 2 fetch_claim#0 .*\n {2}expected \(subset\): no calls\n/),
    });
    expect(checkTrajectory(incident.steps, [], { order: 'superset' }).pass).toBe(true);
  });

  it('name a second call of a tool expected once as the one beyond', () => {
    const twice = [
      ...approvals.slice(0, 4),
      step({
        step: 5,
        kind: 'refund',
        index: 1,
        request: { tool: 'refund', input: second },
        response: { output: { refunded: 40 }, isError: false },
      }),
    ];
    expect(checkTrajectory(twice, ['refund'], { order: 'unordered' }).message).toMatch(
      /^step 5 refund#1 \(asked for by model#1 at step 4\) is a call beyond the expected ones \(refund is expected once: step 3 made it\)\n/,
    );
  });

  it('refuse a count or a limit that is not a whole number', async () => {
    const { incident } = await withIncident();
    expect(thrown(() => checkCalled(incident.steps, 'ocr_document', { times: 1.5 })).code).toBe('USAGE');
    expect(thrown(() => checkStepsAtMost(incident.steps, -1)).code).toBe('USAGE');
  });
});
