import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentBuild } from '../../src/agent/index.js';
import type { AgentContext } from '../../src/machine/index.js';
import type { JsonObject, JsonValue } from '../../src/json/index.js';
import type { MessagePart } from '../../src/conversation/index.js';
import type { Store } from '../../src/store/index.js';
import type { World } from '../../src/world/index.js';
import { RequestHasher } from '../../src/cassette/index.js';
import { canonicalJson, isJsonObject } from '../../src/json/index.js';
import { createEngine } from '../../src/engine/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { liveTransport, overrideTransport } from '../../src/transports/index.js';
import { restoreCheckpoint } from '../../src/checkpoint/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { FULL_CHECKPOINT_EVERY } from '../../src/checkpoint/index.js';
import { driveRun, machineOf } from '../../src/engine/index.js';
import type { Transport } from '../../src/transports/index.js';
import { EXTERNALIZE_AT_BYTES } from '../../src/payload/index.js';
import { recordWithSnapshots } from '../support/record-with-snapshots.js';
import { testAgent } from '../support/test-agents.js';

/** How a call's tool behaves before it answers: retryable failures, or a non-retryable one. */
type Failure = 'none' | 'once' | 'twice' | 'thrice' | 'fatal';

interface CallPlan {
  /** Index into the run's output pool: calls sharing one share its blobs. */
  readonly output: number;
  readonly failure: Failure;
}

interface RunPlan {
  readonly pool: readonly JsonValue[];
  /** The model's tool turns, each asking for 1 to 3 calls in one response. */
  readonly turns: readonly (readonly CallPlan[])[];
  readonly toolResultTurns: 'batch' | 'each';
  readonly retries: boolean;
  readonly stepCap: number;
  readonly outcomeOk: boolean;
  readonly note: string;
}

const FAILED_ATTEMPTS: Record<Failure, number> = { none: 0, once: 1, twice: 2, thrice: 3, fatal: 1 };

// Lone surrogates are not produced by fc.string's units; JSON.stringify escapes them and they must survive.
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const text = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 6 }),
      loneSurrogate,
      fc.constantFrom('😀', '👩‍👩‍👧', 'é', 'e\u0301', '\u0000', '"\\', '\u2028'),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));
// Strings long enough to be stored as a blob of their own (the threshold counts UTF-16 units).
const longText = fc
  .tuple(text, fc.integer({ min: EXTERNALIZE_AT_BYTES, max: 2 * EXTERNALIZE_AT_BYTES }))
  .map(([head, length]) => `${head}${'ü🙂'.repeat(length / 2)}`);
const hex32 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: 32, maxLength: 32 });
const key = fc.oneof(text, fc.constantFrom('$blob', '$tree', '$literal', '__proto__', 'constructor', ''));
// -0 is left out: JSON has no negative zero (JSON.stringify(-0) is "0"), so no stored form can keep it.
const number = fc
  .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
  .map((n) => (Object.is(n, -0) ? 0 : n));

const { json } = fc.letrec<{ json: JsonValue }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(number, fc.boolean(), fc.constant(null), text, longText),
    fc.array(tie('json'), { maxLength: 4 }),
    // Object.fromEntries defines keys as own properties, `__proto__` included.
    fc.array(fc.tuple(key, tie('json')), { maxLength: 4 }).map((entries): JsonValue => Object.fromEntries(entries)),
    // User data shaped like the payload codec's references, which it must keep as data.
    fc.oneof(
      hex32.map((digest): JsonValue => ({ $blob: digest })),
      hex32.map((digest): JsonValue => ({ $tree: digest })),
      tie('json').map((inner): JsonValue => ({ $literal: inner })),
      fc.constant<JsonValue>({ $blob: '0123456789abcdef0123456789abcdef' }),
      fc.constant<JsonValue>({ $literal: 1 }),
    ),
  ),
}));
// Outputs big enough to become blobs, some with references inside (stored as `$tree`).
const bigOutput = fc.oneof(
  longText,
  fc.tuple(json, longText).map(([value, filler]): JsonValue => ({ value, filler })),
  fc
    .array(fc.oneof(longText, json), { minLength: 2, maxLength: 3 })
    .map((items): JsonValue => [
      ...items,
      { $blob: '0123456789abcdef0123456789abcdef' },
      'y'.repeat(EXTERNALIZE_AT_BYTES),
    ]),
);
const output = fc.oneof(json, bigOutput);

const callPlan = fc.record({
  output: fc.nat({ max: 3 }),
  failure: fc.constantFrom<Failure>('none', 'none', 'none', 'once', 'twice', 'thrice', 'fatal'),
});
const runPlan: fc.Arbitrary<RunPlan> = fc
  .record({
    pool: fc.array(output, { minLength: 1, maxLength: 4 }),
    calls: fc.integer({ min: 1, max: 40 }).chain((count) => fc.array(callPlan, { minLength: count, maxLength: count })),
    batches: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 40, maxLength: 40 }),
    toolResultTurns: fc.constantFrom<'batch' | 'each'>('batch', 'each'),
    retries: fc.boolean(),
    // Mostly roomy; sometimes small enough that the run fails on the cap mid-way.
    stepCap: fc.oneof(
      { arbitrary: fc.constant(1000), weight: 4 },
      { arbitrary: fc.integer({ min: 1, max: 60 }), weight: 1 },
    ),
    outcomeOk: fc.boolean(),
    note: text,
  })
  .map(({ calls, batches, ...rest }) => {
    const turns: CallPlan[][] = [];
    for (let next = 0, turn = 0; next < calls.length; turn++) {
      turns.push(calls.slice(next, next + batches[turn]!));
      next += batches[turn]!;
    }
    return { ...rest, turns };
  });

function agentOf(plan: RunPlan): AgentBuild {
  return testAgent({
    stepCap: plan.stepCap,
    toolResultTurns: plan.toolResultTurns,
    ...(plan.retries
      ? {
          retryTool: ({ response, attempt }) =>
            isJsonObject(response.output) && response.output.retryable === true && attempt <= 2,
        }
      : {}),
  });
}

/**
 * A world that follows the plan and answers only from the request and its own
 * per-call attempt counts, so two fresh instances answer the same requests alike
 * (provider ids are derived, not minted from a global counter).
 */
function planWorld(plan: RunPlan, idPrefix: string): World {
  const attempts = new Map<number, number>();
  const calls = plan.turns.flat();
  return {
    model: {
      respond(request) {
        const turn = request.messages.filter((message) => message.role === 'assistant').length;
        const response = {
          id: `msg_${idPrefix}_${turn}`,
          model: 'test-model',
          usage: { inputTokens: 1, outputTokens: 1 },
        };
        const asked = plan.turns[turn];
        if (asked === undefined) {
          const outcome = JSON.stringify({ ok: plan.outcomeOk, calls: calls.length, note: plan.note });
          return Promise.resolve({ ...response, content: [{ type: 'text', text: outcome }], stopReason: 'end_turn' });
        }
        const first = plan.turns.slice(0, turn).reduce((sum, calls) => sum + calls.length, 0);
        const content: MessagePart[] = [{ type: 'text', text: `turn ${turn} ${plan.note}` }];
        asked.forEach((_, i) =>
          content.push({
            type: 'tool_use',
            id: `${idPrefix}_${turn}_${i}`,
            name: 'echo',
            input: { n: first + i, note: plan.note },
          }),
        );
        return Promise.resolve({ ...response, content, stopReason: 'tool_use' });
      },
    },
    tools: {
      echo: (input: JsonObject) => {
        const n = typeof input.n === 'number' ? input.n : -1;
        const call = calls[n];
        if (call === undefined) throw new Error(`no call ${n} in the plan`);
        const attempt = (attempts.get(n) ?? 0) + 1;
        attempts.set(n, attempt);
        if (attempt <= FAILED_ATTEMPTS[call.failure])
          throw Object.assign(new Error(`call ${n} failed`), { retryable: call.failure !== 'fatal' });
        return plan.pool[call.output % plan.pool.length]!;
      },
    },
  };
}

interface Trajectory {
  readonly values: readonly string[];
  readonly contexts: readonly AgentContext[];
}

/** Drives a build in memory from a live snapshot, keeping a copy of every snapshot after it. */
async function driveFrom(
  agent: AgentBuild,
  value: string,
  context: AgentContext,
  transport: Transport,
): Promise<Trajectory> {
  const machine = machineOf(agent);
  const values: string[] = [];
  const contexts: AgentContext[] = [];
  await driveRun({
    build: agent,
    machine,
    snapshot: machine.resolveState({ value, context: structuredClone(context) }),
    transport,
    hasher: new RequestHasher(),
    onStep: (step) => {
      values.push(step.snapshot.value);
      contexts.push(structuredClone(step.snapshot.context));
      return Promise.resolve();
    },
  });
  return { values, contexts };
}

/** Restores every checkpoint 0..last of `runId` and checks it against the live trajectory. */
async function expectRestoresLive(store: Store, runId: string, live: Trajectory, label: string): Promise<void> {
  for (let k = 0; k < live.contexts.length; k++) {
    const restored = await restoreCheckpoint(store, runId, k);
    expect(restored.value, `${label}: state of checkpoint ${k}`).toBe(live.values[k]);
    expect(restored.context, `${label}: context of checkpoint ${k}`).toEqual(live.contexts[k]);
    expect(restored.messageDigests, `${label}: message digests of checkpoint ${k}`).toEqual(
      new RequestHasher().messageDigests(restored.context.messages),
    );
  }
  // And the trajectory ends where the live one did.
  let pastEnd: unknown;
  try {
    await restoreCheckpoint(store, runId, live.contexts.length);
  } catch (error) {
    pastEnd = error;
  }
  expect(
    isForkpointError(pastEnd, 'STEP_OUT_OF_RANGE'),
    `${label}: checkpoint ${live.contexts.length} is past the end`,
  ).toBe(true);
}

/** Every string in a JSON value, keys included. */
function stringsOf(value: JsonValue): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (isJsonObject(value)) return Object.entries(value).flatMap(([name, inner]) => [name, ...stringsOf(inner)]);
  return [];
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const coverage = {
  runs: 0,
  pastFullCheckpoint: 0,
  sharedBigOutput: 0,
  loneSurrogateOutput: 0,
  referenceShapedOutput: 0,
  parallelCalls: 0,
  each: 0,
  batch: 0,
  retried: 0,
  failed: 0,
  forks: 0,
  forkPastFullCheckpoint: 0,
};

describe('restoreCheckpoint (property)', () => {
  it('restoring checkpoint k equals the live snapshot after step k, for every k of a recorded run and of a fork of it', async () => {
    await fc.assert(
      fc.asyncProperty(runPlan, output, fc.nat(), async (plan, overrideOutput, pick) => {
        const store = sqliteStore({ path: ':memory:' });
        try {
          const agent = agentOf(plan);
          const recorded = await recordWithSnapshots(store, agent, planWorld(plan, 'toolu'), { n: 1, note: plan.note });
          await expectRestoresLive(store, recorded.runId, recorded, 'recorded run');

          // Fork at a tool step (a generated one) with an overridden result, and continue live.
          const toolSteps = recorded.values.flatMap((value, k) =>
            value === 'awaitingTools' && k + 1 < recorded.values.length ? [k + 1] : [],
          );
          const atStep = toolSteps[pick % Math.max(1, toolSteps.length)];
          const engine = createEngine({ store });
          // A fork that changes nothing is refused (it would claim a change that never happened): only real changes fork.
          const recordedOutput =
            atStep === undefined
              ? undefined
              : ((await engine.getRun(recorded.runId)).steps[atStep - 1]?.response as { output?: unknown } | undefined)
                  ?.output;
          if (atStep !== undefined && canonicalJson(recordedOutput as JsonValue) !== canonicalJson(overrideOutput)) {
            const fork = await engine.fork({
              parentRunId: recorded.runId,
              atStep,
              override: { kind: 'tool-result', output: overrideOutput },
              agent,
              world: planWorld(plan, 'forked'),
              runId: 'f0f0f0f0',
            });
            const forkRun = await engine.getRun(fork.runId);
            // The fork's live tail, derived without the store: from the parent's live snapshot, same override, a fresh world.
            const transport = overrideTransport({
              step: atStep,
              answer: { type: 'tool', response: { output: overrideOutput, isError: false } },
              live: liveTransport(planWorld(plan, 'forked')),
            });
            const tail = await driveFrom(
              agent,
              recorded.values[atStep - 1]!,
              recorded.contexts[atStep - 1]!,
              transport,
            );
            const forkLive: Trajectory = {
              values: [...recorded.values.slice(0, atStep), ...tail.values],
              contexts: [...recorded.contexts.slice(0, atStep), ...tail.contexts],
            };
            expect(forkRun.steps.length, 'the fork has the steps its live drive took').toBe(
              forkLive.contexts.length - 1,
            );
            await expectRestoresLive(store, fork.runId, forkLive, `fork at step ${atStep}`);
            coverage.forks++;
            if (
              Math.floor((forkLive.contexts.length - 1) / FULL_CHECKPOINT_EVERY) >
              Math.floor(atStep / FULL_CHECKPOINT_EVERY)
            )
              coverage.forkPastFullCheckpoint++;
          }

          coverage.runs++;
          if (recorded.contexts.length > FULL_CHECKPOINT_EVERY + 1) coverage.pastFullCheckpoint++;
          coverage[plan.toolResultTurns]++;
          if (recorded.contexts.some((context) => (context.failedAttempts ?? 0) > 0)) coverage.retried++;
          if (recorded.values.at(-1) === 'failed') coverage.failed++;
          if (plan.turns.some((calls) => calls.length > 1)) coverage.parallelCalls++;
          const uses = new Map<number, number>();
          for (const call of plan.turns.flat())
            uses.set(call.output % plan.pool.length, (uses.get(call.output % plan.pool.length) ?? 0) + 1);
          const used = [...uses.keys()].map((index) => plan.pool[index]!);
          if (
            [...uses].some(
              ([index, count]) => count > 1 && JSON.stringify(plan.pool[index]).length >= EXTERNALIZE_AT_BYTES,
            )
          )
            coverage.sharedBigOutput++;
          if (used.some((value) => stringsOf(value).some((string) => LONE_SURROGATE.test(string))))
            coverage.loneSurrogateOutput++;
          if (used.some((value) => /"\$(blob|tree|literal)":/.test(JSON.stringify(value))))
            coverage.referenceShapedOutput++;
        } finally {
          await store.close();
        }
      }),
      { numRuns: 50 },
    );
    // The generators must keep reaching the cases the property is about.
    expect(coverage).toMatchObject({ runs: 50 });
    for (const [name, count] of Object.entries(coverage))
      expect(count, `property runs covering ${name}`).toBeGreaterThan(0);
  });
});
