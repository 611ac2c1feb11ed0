import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll } from 'vitest';
import type { Engine } from '../../../src/engine/index.js';
import type { ProviderEmulator } from '../../../src/testing/index.js';
import type { Session, SessionResult } from '../../../src/wrap/index.js';
import { startAnthropicEmulator } from '../../support/emulators/anthropic-emulator.js';
import { anthropicClaimLoop } from './anthropic-claim-loop.js';
import { claimTools, correctedAnswers, decisionOf, incidentAnswers } from './claim-world.js';

/** The name the wrapped Anthropic loop's runs are stored under. */
export const WRAPPED_AGENT = 'claims-loop';

/** The three runs of a wrapped loop every reader is tried on: a recording, its strict replay, and a fork of it. */
export interface WrappedRuns {
  readonly recorded: SessionResult;
  readonly replayed: SessionResult;
  /** A fork by prefix replay at step 4 (the OCR), with the corrected invoice total. */
  readonly forked: SessionResult;
}

/** Runs the hand-written Anthropic loop once, its client and tools wrapped by `session`, and closes the session. */
export async function runWrappedLoop(session: Session, emulator: ProviderEmulator): Promise<SessionResult> {
  const tools = claimTools();
  const client = new Anthropic({
    apiKey: 'test-key',
    baseURL: emulator.url,
    maxRetries: 0,
    middleware: [session.anthropic()],
  });
  const text = await anthropicClaimLoop(client, {
    fetch_claim: session.tool('fetch_claim', tools.fetch_claim, { readOnly: true }),
    ocr_document: session.tool('ocr_document', tools.ocr_document, { readOnly: true }),
    estimate_repair: session.tool('estimate_repair', tools.estimate_repair, { readOnly: true }),
  });
  return session.close({ outcome: decisionOf(text) });
}

/**
 * Records the claims incident through the wrapped Anthropic loop (against
 * `emulator`), replays it strictly, and forks it by prefix replay at the OCR
 * step with the corrected total (the model then approves).
 */
export async function recordWrappedRuns(engine: Engine, emulator: ProviderEmulator): Promise<WrappedRuns> {
  emulator.script(incidentAnswers().map((response) => ({ kind: 'response', response })));
  const recorded = await runWrappedLoop(
    await engine.session({ mode: 'record', agent: WRAPPED_AGENT, input: { claimId: 'CLM-91077' } }),
    emulator,
  );
  const replayed = await runWrappedLoop(
    await engine.session({ mode: 'replay:strict', agent: WRAPPED_AGENT, source: recorded.runId }),
    emulator,
  );
  emulator.script(correctedAnswers().map((response) => ({ kind: 'response', response })));
  const forked = await runWrappedLoop(
    await engine.session({
      mode: 'fork:prefix',
      agent: WRAPPED_AGENT,
      source: recorded.runId,
      atStep: 4,
      override: { kind: 'tool-merge', patch: { invoiceTotal: 2050 } },
    }),
    emulator,
  );
  return { recorded, replayed, forked };
}

/** Starts the Anthropic emulator the wrapped loop talks to (on 127.0.0.1; close it after). */
export const startWrappedEmulator = startAnthropicEmulator;

/** What {@link useWrappedRuns} gives a describe block once its `beforeAll` has run. */
export interface WrappedRunsFixture {
  readonly emulator: ProviderEmulator;
  readonly runs: WrappedRuns;
}

/**
 * Starts the emulator and records the wrapped runs before the enclosing
 * describe block's tests, and closes the emulator (and, with `closeStore`,
 * the engine's store) after them. Read the fields inside a test, not before.
 */
export function useWrappedRuns(engine: Engine, options: { readonly closeStore?: boolean } = {}): WrappedRunsFixture {
  let emulator: ProviderEmulator | undefined;
  let runs: WrappedRuns | undefined;
  beforeAll(async () => {
    emulator = await startWrappedEmulator();
    runs = await recordWrappedRuns(engine, emulator);
  });
  afterAll(async () => {
    await emulator?.close();
    if (options.closeStore === true) await engine.store.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the wrapped runs are recorded in beforeAll: read them inside a test');
    return value;
  };
  return {
    get emulator() {
      return ready(emulator);
    },
    get runs() {
      return ready(runs);
    },
  };
}
