import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StepShape } from '../../src/entries/analysis.js';
import { signatureOf } from '../../src/entries/analysis.js';
import type { ErrorCode } from '../../src/index.js';

const TOOLS = ['fetch_claim', 'ocr_document', 'estimate_repair', 'fetch_policy'] as const;

const toolStep = (tool: string, output = 'a1', label: string | null = null, isError = false): StepShape => ({
  kind: 'tool',
  tool,
  output,
  isError,
  label,
});
const asks = (...tools: string[]): StepShape => ({ kind: 'model', asks: tools, stop: 'tool_use' });
const final: StepShape = { kind: 'model', asks: [], stop: 'end_turn' };

// A trajectory of model turns, each asking for one tool that answers, with an optional loop taken `times` times.
const trajectory = fc.record({
  tools: fc.array(fc.constantFrom(...TOOLS), { minLength: 1, maxLength: 6 }),
  loop: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  label: fc.option(fc.constant('ocr-confidence<0.5'), { nil: null }),
  code: fc.constantFrom<ErrorCode | null>(null, 'VALIDATION_FAILED', 'TOOL_FAILED', 'STEP_CAP_REACHED'),
});
type Trajectory = { tools: string[]; loop: number | undefined; label: string | null; code: ErrorCode | null };

function stepsOf(run: Trajectory, loopTimes: number): StepShape[] {
  const steps: StepShape[] = [];
  run.tools.forEach((tool, i) => {
    const turn = [asks(tool), toolStep(tool, `out-${tool}`, tool === 'ocr_document' ? run.label : null)];
    const times = run.loop === i ? loopTimes : 1;
    for (let k = 0; k < times; k += 1) steps.push(...turn);
  });
  steps.push(final);
  return steps;
}
const ended = (run: Trajectory, steps: readonly StepShape[]) =>
  run.code === null
    ? ({ status: 'completed', error: null } as const)
    : ({ status: 'failed', error: { code: run.code, step: steps.length } } as const);

describe('failure signatures', () => {
  it('are equal for runs of one class: a loop taken twice or five times, whatever the run did inside its values', () => {
    fc.assert(
      fc.property(trajectory, fc.integer({ min: 2, max: 6 }), fc.integer({ min: 2, max: 6 }), (run, a, b) => {
        const first = stepsOf(run, a);
        const second = stepsOf(run, b);
        expect(signatureOf(first, ended(run, first)).digest).toBe(signatureOf(second, ended(run, second)).digest);
      }),
    );
  });

  it('differ across classes: another tool, label, output shape, error flag, ending code or failing step', () => {
    fc.assert(
      fc.property(trajectory, fc.nat(), (run, pick) => {
        const steps = stepsOf(run, 1);
        const base = signatureOf(steps, ended(run, steps)).digest;
        const at = 1 + 2 * (pick % run.tools.length);
        const tool = steps[at];
        if (tool?.kind !== 'tool') throw new Error('every other step is a tool step');
        const variants: StepShape[][] = [
          steps.with(at, { ...tool, tool: `${tool.tool}_v2` }),
          steps.with(at, { ...tool, label: tool.label === null ? 'low' : null }),
          steps.with(at, { ...tool, output: `${tool.output}-with-a-new-key` }),
          steps.with(at, { ...tool, isError: !tool.isError }),
        ];
        for (const variant of variants) expect(signatureOf(variant, ended(run, variant)).digest).not.toBe(base);
        const otherCode: ErrorCode = run.code === 'TOOL_FAILED' ? 'VALIDATION_FAILED' : 'TOOL_FAILED';
        expect(
          signatureOf(steps, { status: 'failed', error: { code: otherCode, step: steps.length } }).digest,
        ).not.toBe(base);
        if (run.code !== null)
          expect(signatureOf(steps, { status: 'failed', error: { code: run.code, step: at + 1 } }).digest).not.toBe(
            base,
          );
      }),
    );
  });

  it('collapse a loop taken twice or more, but keep one taken once apart from it', () => {
    const once = [asks('ocr_document'), toolStep('ocr_document'), final];
    const twice = [
      asks('ocr_document'),
      toolStep('ocr_document'),
      asks('ocr_document'),
      toolStep('ocr_document'),
      final,
    ];
    const signature = signatureOf(twice, { status: 'completed', error: null });
    expect(signature.trajectory).toEqual([
      { kind: 'repeat', steps: [asks('ocr_document'), toolStep('ocr_document')] },
      final,
    ]);
    expect(signatureOf(once, { status: 'completed', error: null }).digest).not.toBe(signature.digest);
  });

  it('collapse a one-turn loop the same however often it was taken, where it overlaps a longer repeat too', () => {
    // The counterexample fast-check once found: E F E F, then F looped; `F F` and `E F E F` overlap on one F.
    const turns = (...tools: string[]) => [...tools.flatMap((tool) => [asks(tool), toolStep(tool)]), final];
    const twice = signatureOf(
      turns('estimate_repair', 'fetch_claim', 'estimate_repair', 'fetch_claim', 'fetch_claim'),
      {
        status: 'completed',
        error: null,
      },
    );
    const thrice = signatureOf(
      turns('estimate_repair', 'fetch_claim', 'estimate_repair', 'fetch_claim', 'fetch_claim', 'fetch_claim'),
      { status: 'completed', error: null },
    );
    expect(thrice.digest).toBe(twice.digest);
    expect(twice.trajectory.at(-2)).toEqual({ kind: 'repeat', steps: [asks('fetch_claim'), toolStep('fetch_claim')] });
  });

  it('keep a loop inside a loop as a repeat inside a repeat', () => {
    const inner = [asks('ocr_document'), toolStep('ocr_document')];
    const outer = (times: number) => [
      asks('fetch_claim'),
      toolStep('fetch_claim'),
      ...Array.from({ length: times }, () => inner).flat(),
    ];
    const steps = [...outer(2), ...outer(3), ...outer(2), final];
    const signature = signatureOf(steps, { status: 'completed', error: null });
    expect(signature.trajectory).toEqual([
      { kind: 'repeat', steps: [asks('fetch_claim'), toolStep('fetch_claim'), { kind: 'repeat', steps: inner }] },
      final,
    ]);
    expect(signature.lead).toBe(0);
  });

  it('name the failing step, or the step that was never made, and lead to the last labelled observation', () => {
    const steps = [
      asks('fetch_claim'),
      toolStep('fetch_claim'),
      asks('ocr_document'),
      toolStep('ocr_document', 'o', 'ocr-confidence<0.5'),
      asks('fetch_policy'),
      toolStep('fetch_policy'),
      final,
    ];
    const failed = signatureOf(steps, { status: 'failed', error: { code: 'VALIDATION_FAILED', step: 7 } });
    expect(failed.ending).toEqual({ status: 'failed', code: 'VALIDATION_FAILED', at: 'model' });
    expect(failed.lead).toBe(3);
    // A tool that failed before it answered: the step after the last is the tool the model asked for.
    const stopped = signatureOf(steps.slice(0, 5), { status: 'failed', error: { code: 'TOOL_FAILED', step: 6 } });
    expect(stopped.ending.at).toBe('fetch_policy');
    expect(signatureOf(steps.slice(0, 2), { status: 'completed', error: null }).lead).toBe(1);
    expect(signatureOf([final], { status: 'completed', error: null }).lead).toBeNull();
  });
});
