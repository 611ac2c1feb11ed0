import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { exportRunSpans, spanIdOf, traceIdOf } from '../../src/otel/index.js';
import { memoryStore } from '../../src/store/index.js';
import { attributesOf, KIND, spansOfJson } from '../support/otlp-spans.js';
import { LOOP_MODEL } from '../wrap/support/claim-world.js';
import { WRAPPED_AGENT, useWrappedRuns } from '../wrap/support/wrapped-runs.js';

describe('OTLP spans of a wrapped loop’s runs', () => {
  const engine = createEngine({ store: memoryStore() });
  const wrapped = useWrappedRuns(engine);

  it('export as a driven run’s do: an agent span, a chat span per model call with its usage, the wire’s provider', async () => {
    const exported = await exportRunSpans(engine, wrapped.runs.recorded.runId);
    const spans = spansOfJson(exported.json);
    expect(spans[0]).toMatchObject({ name: `invoke_agent ${WRAPPED_AGENT}` });
    expect(attributesOf(spans[0]!)).toMatchObject({ 'forkpoint.loop': 'wrapped', 'forkpoint.mode': 'record' });
    const chats = spans.filter((span) => span.name === `chat ${LOOP_MODEL}`);
    expect(chats).toHaveLength(4);
    for (const chat of chats) {
      expect(chat.kind).toBe(KIND.client);
      expect(attributesOf(chat)).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'forkpoint.provenance': 'live' });
      expect(attributesOf(chat)['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    }
  });

  it('link a prefix-replay fork to its parent and count only its own live calls', async () => {
    const fork = await engine.getRun(wrapped.runs.forked.runId);
    const spans = spansOfJson((await exportRunSpans(engine, fork.runId)).json);
    const parent = fork.parent!;
    expect(spans[0]!.links.map((link) => [link.traceId, link.spanId])).toEqual([
      [traceIdOf(parent.runId), spanIdOf(parent.runId, 0)],
      ...(parent.atStep > 1 ? [[traceIdOf(parent.runId), spanIdOf(parent.runId, parent.atStep - 1)]] : []),
    ]);
    const live = spans.filter((span) => 'gen_ai.usage.input_tokens' in attributesOf(span));
    expect(live.map((span) => attributesOf(span)['forkpoint.provenance'])).toEqual(live.map(() => 'live'));
    expect(live).toHaveLength(2);
  });
});
