// Canonical JSON two ways: forkpoint's own (src/json/canonical-json.ts, which the request hasher uses on
// every step) and fast-json-stable-stringify, the package a property test holds it equal to.
import stableStringify from 'fast-json-stable-stringify';
import { toolDefinitionsOf } from '../../dist/src/driver/index.js';
import { canonicalJson, deepFreeze } from '../../dist/src/json/index.js';
import { perCallPaired } from './timing.mjs';

/**
 * The two side by side, in alternating batches, over values of a recorded run: the checkpoint state after
 * its last step (what a restore rebuilds) and its last model request with the conversation inline (plain
 * values, serialized whole), then the last message, a 2 KB tool result, as the request hasher digests it
 * on each step: when recording, with the output's canonical text known from the step's payload batch;
 * when replaying, with the output frozen, as a cassette's values are, so that its text is remembered.
 * Each reports the median ms per call of each side and the median of their ratios (package over own).
 */
export async function benchCanonicalJson(engine, run, agent) {
  const last = run.steps.length - 1;
  const { value, context } = await engine.checkpoint(run.runId, last);
  const request = {
    model: context.model,
    system: context.system,
    messages: context.messages,
    tools: toolDefinitionsOf(agent),
    params: agent.params,
  };
  const message = context.messages.at(-1);
  const output = message.content[0].content;
  const outputText = stableStringify(output);
  const known = (container) => (container === output ? outputText : undefined);
  const replayed = { ...message, content: [{ ...message.content[0], content: deepFreeze(structuredClone(output)) }] };
  const cases = {
    state: { input: { value, context } },
    request: { input: request },
    recorded_message: { input: message, known },
    replayed_message: { input: replayed },
  };
  const figures = {};
  for (const [name, { input, known }] of Object.entries(cases)) {
    const text = stableStringify(input);
    if (canonicalJson(input, known) !== text) throw new Error(`the two canonical texts of the ${name} differ`);
    const paired = await perCallPaired(
      () => canonicalJson(input, known),
      () => stableStringify(input),
      { warmup: name.endsWith('message') ? 2000 : 50, rounds: 9 },
    );
    figures[name] = {
      bytes: Buffer.byteLength(text),
      ownMs: paired.aMs,
      packageMs: paired.bMs,
      ratio: 1 / paired.ratio,
    };
  }
  return figures;
}
