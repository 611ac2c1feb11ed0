import { expect } from 'vitest';
import { isApprovalAnswer, isModelResponse, isToolResponse } from '../conversation/index.js';
import { isForkpointError } from '../errors/index.js';
import type { JsonValue } from '../json/index.js';
import { assertJsonValue } from '../json/index.js';
import type { Answered, Transport } from '../transports/index.js';
import type { Provenance } from '../vocabulary/index.js';
import type { ScriptedCall } from './transport-fixture.js';

/** What a transport owes one call: an answer from a source, or a failure with a code. */
export type Expected =
  | {
      readonly outcome: 'answer';
      readonly provenance: Provenance;
      readonly response: JsonValue;
      /** Whether answering it asks the world. */
      readonly asksWorld: boolean;
      readonly sideEffect: boolean;
    }
  | { readonly outcome: 'throws'; readonly code: string; readonly asksWorld: false }
  /** An approval nobody can answer here: the transport says so, and the run waits. */
  | { readonly outcome: 'nobody'; readonly asksWorld: false };

/** How asking a transport once ended. */
export type Settled =
  { readonly answer: Answered<JsonValue> } | { readonly error: unknown } | { readonly nobody: true };

/** Asks a transport one scripted call, as the driver does, and keeps how it ended. */
export async function settle(transport: Transport, scripted: ScriptedCall): Promise<Settled> {
  try {
    if (scripted.type === 'approval') {
      const answer = await transport.approval?.(scripted.call);
      return answer === undefined ? { nobody: true } : { answer };
    }
    return {
      answer: scripted.type === 'model' ? await transport.model(scripted.call) : await transport.tool(scripted.call),
    };
  } catch (error) {
    return { error };
  }
}

const where = (scripted: ScriptedCall): string =>
  `${scripted.call.kind}#${scripted.call.index} (step ${scripted.call.step})`;

/**
 * The code of the failure a call ended with: a `ForkpointError`, whose
 * message names the call (the driver stops the run with it, and a plain
 * error would be reported as a bug in forkpoint). Fails the test if the call
 * was answered.
 */
export function failureOf(settled: Settled, scripted: ScriptedCall): string {
  expect('error' in settled, `${where(scripted)} was answered`).toBe(true);
  const error = 'error' in settled ? settled.error : undefined;
  expect(isForkpointError(error), `${where(scripted)} failed with ${String(error)}`).toBe(true);
  if (!isForkpointError(error)) return '';
  expect(error.message).toContain(where(scripted));
  return error.code;
}

/** Checks one call's outcome against what was owed. */
export function check(scripted: ScriptedCall, expected: Expected, settled: Settled): void {
  const at = where(scripted);
  if (expected.outcome === 'throws') {
    expect(failureOf(settled, scripted), at).toBe(expected.code);
    return;
  }
  if (expected.outcome === 'nobody') {
    expect(settled, `${at} was answered where nobody can answer`).toEqual({ nobody: true });
    return;
  }
  if ('nobody' in settled) throw new Error(`${at} was left unanswered`);
  if (!('answer' in settled)) throw new Error(`${at} failed: ${String(settled.error)}`);
  const { answer } = settled;
  expect(() => {
    assertJsonValue(answer.response, at);
  }, at).not.toThrow();
  const shaped =
    scripted.type === 'model'
      ? isModelResponse(answer.response)
      : scripted.type === 'approval'
        ? isApprovalAnswer(answer.response)
        : isToolResponse(answer.response);
  expect(shaped, at).toBe(true);
  expect(PROVENANCES, at).toContain(answer.provenance);
  expect(answer.provenance, at).toBe(expected.provenance);
  expect(answer.response, at).toEqual(expected.response);
  // A side effect is the one fact a step must not claim falsely either way: only a real call of one is marked.
  if (expected.sideEffect) expect(answer.sideEffect, at).toBe(true);
  else expect('sideEffect' in answer, `${at} is marked as a side effect`).toBe(false);
}

const PROVENANCES: readonly Provenance[] = ['recorded', 'live', 'override', 'inherited', 'simulated', 'human'];

/** The world's log (see `TransportFixture.asked`) of asking it these calls, in order. */
export function asked(calls: readonly ScriptedCall[]): string[] {
  // A person's answer is never asked of the world.
  return calls.flatMap((scripted) =>
    scripted.type === 'approval'
      ? []
      : scripted.type === 'model'
        ? ['model']
        : [`${scripted.call.request.tool} ${JSON.stringify(scripted.call.request.input)}`],
  );
}

/** Freezes a value and everything in it. */
export function freezeAll<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) freezeAll(item);
    Object.freeze(value);
  }
  return value;
}
