import { decodeConversation, lineageOf } from '../checkpoint/index.js';
import type { RunRecord, StoreReader } from '../store/index.js';
import type { Cassette } from '../cassette/index.js';
import { CASSETTE_FORMAT } from '../cassette/index.js';
import { WRAPPED_LOOP_VERSION } from '../machine/index.js';
import type { StepView } from './run-view.js';

/**
 * The cassette of a stored run: its steps as entries, and the messages its
 * model requests referred to. Nothing is copied in the database; this reads
 * the rows the run already has.
 */
export async function cassetteOfRun(store: StoreReader, run: RunRecord, steps: readonly StepView[]): Promise<Cassette> {
  const { messages, digests } = await store.read(async (reader) => {
    const lineage = await lineageOf(reader, run.runId, run);
    const logs = await Promise.all(
      lineage.map((segment) => reader.readMessages(segment.runId, segment.from, segment.to)),
    );
    return decodeConversation(reader, [], logs);
  });
  return {
    format: CASSETTE_FORMAT,
    canonicalForm: run.canonicalForm,
    // A structural replay's rows hold shapes, but in the full canonical form: its own cassette is a full one.
    tier: run.tier === 'synthetic' ? 'synthetic' : 'full',
    expiresAt: run.expiresAt,
    agent: { name: run.agentName, build: run.build, codeHash: run.codeHash },
    ...(run.machineVersion === WRAPPED_LOOP_VERSION ? { loop: 'wrapped' as const } : {}),
    source: {
      runId: run.runId,
      scenario: run.scenario,
      input: run.input,
      worldAt: run.worldAt,
      seed: run.seed,
      recordedAt: run.createdAt,
      status: run.status,
      outcome: run.outcome,
      error: run.error === null ? null : { ...run.error },
    },
    // decodeConversation gives each message its digest, one for one.
    messages: messages.map((message, i) => ({ digest: digests[i] ?? '', message })),
    entries: steps.map((step) => ({
      step: step.step,
      kind: step.kind,
      index: step.index,
      requestHash: step.requestHash,
      request: step.request,
      response: step.response,
    })),
  };
}
