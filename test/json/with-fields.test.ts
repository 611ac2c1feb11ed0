import { describe, expect, it } from 'vitest';
import { withFields } from '../../src/json/index.js';

describe('withFields', () => {
  it("is the spread it stands for: the base's keys in order, a field's new value in its old place, new keys after", () => {
    const base = { runId: 'a', status: 'running', input: { n: 1 }, parent: null };
    const fields = { status: 'completed', findings: [], stepCount: 3 };
    const made = withFields(base, fields);
    expect(Object.keys(made)).toEqual(Object.keys({ ...base, ...fields }));
    expect(made).toEqual({ ...base, ...fields });
    expect(JSON.stringify(made)).toBe(JSON.stringify({ ...base, ...fields }));
  });

  it('copies references, not values, and changes neither argument', () => {
    const input = { n: 1 };
    const base = { input };
    const fields = { extra: [1] };
    const made = withFields(base, fields);
    expect(made.input).toBe(input);
    expect(made.extra).toBe(fields.extra);
    expect(base).toEqual({ input: { n: 1 } });
    expect(made).not.toBe(base);
  });
});
