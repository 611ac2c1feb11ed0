import { describe, expect, it } from 'vitest';
import type { StepShape } from '../../src/signature/index.js';
import { signatureOf } from '../../src/signature/index.js';
import { leadWords, trajectoryWords } from '../../src/workflows/index.js';

const model = (...asks: string[]): StepShape => ({
  kind: 'model',
  asks,
  stop: asks.length > 0 ? 'tool_use' : 'end_turn',
});
const tool = (name: string, isError = false): StepShape => ({
  kind: 'tool',
  tool: name,
  output: 'skeleton',
  isError,
  label: null,
});
const words = (steps: readonly StepShape[]) => {
  const signature = signatureOf(steps, { status: 'completed', error: null });
  return { trajectory: trajectoryWords(signature), lead: leadWords(signature) };
};

// Signatures keep no payload: the call an approval answered is read from the steps around it.
describe('the words of a trajectory with approvals', () => {
  it('name an approved call by the call that followed it, and a rejected one by the ask never made', () => {
    expect(
      words([model('lookup'), tool('lookup'), model('refund'), tool('approval'), tool('refund'), model()]),
    ).toEqual({
      trajectory: 'lookup → approval(refund) ✓ → refund',
      lead: 'refund',
    });
    expect(words([model('lookup'), tool('lookup'), model('refund'), tool('approval', true), model()])).toEqual({
      trajectory: 'lookup → approval(refund) ✗',
      lead: 'approval(refund) ✗',
    });
  });

  it('tell apart the calls of one turn: the rejected one is the ask the turn never made', () => {
    expect(words([model('notify', 'refund'), tool('approval', true), tool('notify'), model()]).trajectory).toBe(
      'approval(refund) ✗ → notify',
    );
    expect(
      words([model('notify', 'refund'), tool('notify'), tool('approval'), tool('refund'), model()]).trajectory,
    ).toBe('notify → approval(refund) ✓ → refund');
  });

  it('name no tool where the steps leave none, or more than one', () => {
    // Rejected, with two asks of the turn never made: either could be the one.
    expect(words([model('refund', 'void'), tool('approval', true), model()]).trajectory).toBe('approval ✗');
    // Approved, and the run went no further: no call says which.
    expect(words([model('refund', 'void'), tool('approval')]).trajectory).toBe('approval ✓');
  });
});
