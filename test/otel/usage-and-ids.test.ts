import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Provenance } from '../../src/vocabulary/index.js';
import { PROVENANCES } from '../../src/vocabulary/index.js';
import { exportRunSpans, spanIdOf, traceIdOf, usageAttributes } from '../../src/otel/index.js';
import { withIncident } from '../support/incident.js';

const tokens = fc.record({
  input: fc.nat(100_000),
  output: fc.nat(100_000),
  cacheRead: fc.nat(100_000),
  cacheWrite: fc.nat(100_000),
  reasoning: fc.nat(100_000),
});

describe('the usage rule', () => {
  it('puts gen_ai.usage.* on live calls only, the rest under forkpoint.recorded_usage.*, input summed with the cache', () => {
    fc.assert(
      fc.property(fc.constantFrom<Provenance | null>(...PROVENANCES, null), tokens, (provenance, counts) => {
        const attributes = usageAttributes(provenance, counts);
        const keys = Object.keys(attributes);
        const prefix = provenance === 'live' ? 'gen_ai.usage.' : 'forkpoint.recorded_usage.';
        expect(keys.every((key) => key.startsWith(prefix))).toBe(true);
        expect(attributes[`${prefix}input_tokens`]).toBe(counts.input + counts.cacheRead + counts.cacheWrite);
        expect(attributes[`${prefix}output_tokens`]).toBe(counts.output);
        expect(attributes[`${prefix}cache_read.input_tokens`]).toBe(counts.cacheRead);
        expect(attributes[`${prefix}cache_creation.input_tokens`]).toBe(counts.cacheWrite);
      }),
    );
  });
});

describe('deterministic ids', () => {
  const runId = fc.stringMatching(/^[0-9a-f]{8}([0-9a-f]{4})?$/);

  it('are valid OTLP ids that depend on the run id and the step alone, and differ between them', () => {
    fc.assert(
      fc.property(runId, runId, fc.nat(10_000), fc.nat(10_000), (a, b, stepA, stepB) => {
        expect(traceIdOf(a)).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
        expect(spanIdOf(a, stepA)).toMatch(/^(?!0{16})[0-9a-f]{16}$/);
        expect(traceIdOf(a)).toBe(traceIdOf(a));
        expect(spanIdOf(a, stepA)).toBe(spanIdOf(a, stepA));
        if (a !== b) expect(traceIdOf(a)).not.toBe(traceIdOf(b));
        if (a !== b || stepA !== stepB) expect(spanIdOf(a, stepA)).not.toBe(spanIdOf(b, stepB));
      }),
    );
  });

  it("give a run's spans the same ids and bytes on every export, from an engine or from its store", async () => {
    const { engine } = await withIncident();
    const first = await exportRunSpans(engine, '9b40c1d5');
    const second = await exportRunSpans(engine.store, '9b40c1d5');
    expect(second.json).toBe(first.json);
    expect(first.traceId).toBe(traceIdOf('9b40c1d5'));
    expect(first.spanCount).toBe(10);
    expect(first.json).toContain(`"spanId":"${spanIdOf('9b40c1d5', 0)}"`);
    expect(first.json).toContain(`"spanId":"${spanIdOf('9b40c1d5', 9)}"`);
  });

  it('cuts content attributes at the length limit asked for', async () => {
    const { engine } = await withIncident();
    const cut = await exportRunSpans(engine, '9b40c1d5', { content: 'full', attributeValueLengthLimit: 40 });
    const values = [
      ...cut.json.matchAll(/"key":"gen_ai\.tool\.call\.result","value":\{"stringValue":"((?:[^"\\]|\\.)*)"/g),
    ];
    expect(values).toHaveLength(4);
    for (const [, value] of values) expect(JSON.parse(`"${value ?? ''}"`)).toHaveLength(40);
  });

  it('raises RUN_NOT_FOUND for an unknown run', async () => {
    const { engine } = await withIncident();
    await expect(exportRunSpans(engine, 'abcdef12')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
  });
});
