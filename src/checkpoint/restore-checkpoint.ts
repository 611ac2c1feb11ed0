import { ForkpointError } from '../errors/index.js';
import type { AgentContext } from '../machine/index.js';
import { MACHINE_VERSION } from '../machine/index.js';
import type { StoreReader } from '../store/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import { isCheckpointDelta, isFullCheckpoint } from './checkpoint-guards.js';
import type { CheckpointSkeleton, RestoredCheckpoint } from './checkpoint-state.js';
import type { StoredMachineState } from './machine-migrations.js';
import { migrateMachineState } from './machine-migrations.js';
import { decodeConversation } from './decode-conversation.js';
import type { LineageSegment } from './lineage.js';
import { lineageOf, segmentAt } from './lineage.js';

/**
 * Rebuilds checkpoint `step` of a run from storage: the nearest full
 * checkpoint, at most {@link FULL_CHECKPOINT_EVERY}-1 deltas, and the messages
 * appended up to it, decoded in one pass. Nothing of the run is re-executed,
 * and every call returns freshly parsed objects (restoring into XState
 * mutates them). Every read sees one state of the store.
 *
 * Given the run's lineage, it reads the store once (`readRestore`, one
 * statement on a server) and opens no transaction; a checkpoint whose rows a
 * `gc` removed after the lineage was read is then `CASSETTE_EXPIRED`, as it
 * would have been a moment later.
 */
export function restoreCheckpoint(
  store: StoreReader,
  runId: string,
  step: number,
  lineage?: readonly LineageSegment[],
): Promise<RestoredCheckpoint> {
  if (lineage !== undefined) return restoreFrom(store, runId, step, lineage);
  return store.read((reader) => restoreFrom(reader, runId, step));
}

async function restoreFrom(
  store: StoreReader,
  runId: string,
  step: number,
  lineage?: readonly LineageSegment[],
): Promise<RestoredCheckpoint> {
  const segments = lineage ?? (await lineageOf(store, runId));
  const holder = segmentAt(segments, step);
  // One read for the rows and every blob they reach: a store over a network answers it in one round trip.
  const { chain, logs, blobs } =
    holder === undefined
      ? { chain: [], logs: [], blobs: new Map<string, string>() }
      : await store.readRestore({
          chain: { runId: holder.runId, step },
          logs: segments
            .filter((segment) => segment.from <= step)
            .map((segment) => ({ runId: segment.runId, from: segment.from, to: Math.min(step, segment.to) })),
        });
  const base = chain[0];
  if (base === undefined || chain.at(-1)?.step !== step) {
    if (holder !== undefined) await checkNotPurged(store, holder.runId, runId);
    throw new ForkpointError('STEP_OUT_OF_RANGE', `run ${runId} has no checkpoint ${step}`);
  }
  const {
    payloads: decoded,
    messages,
    digests: messageDigests,
  } = await decodeConversation(
    store,
    chain.map((row) => row.checkpoint),
    logs,
    blobs,
  );
  const full = decoded[0] ?? null;
  // The version first: a checkpoint of another machine may well hold another shape.
  const version = isJsonObject(full) ? full.machineVersion : undefined;
  if (typeof version !== 'number') {
    throw new ForkpointError(
      'CHECKPOINT_INCOMPATIBLE',
      `checkpoint ${step} of run ${runId} was written by machine version ${shown(version)}; this forkpoint runs version ${MACHINE_VERSION}. Replay the run from its cassette instead`,
    );
  }
  const { value, context: skeleton } =
    version === MACHINE_VERSION
      ? assemble(runId, chain, decoded)
      : migrated(runId, step, version, assembleStored(runId, chain, decoded));
  const { messageCount, ...rest } = skeleton;
  if (messages.length !== messageCount) {
    throw new ForkpointError(
      'STORE_CORRUPT',
      `checkpoint ${step} of run ${runId} expects ${messageCount} messages, the store holds ${messages.length}`,
    );
  }
  // A fork that changed the prompt or model did so before its first step: the
  // state before that step is its parent's checkpoint with the change applied.
  const override = segments.find((segment) => segment.from === step + 1)?.contextOverride;
  const context: AgentContext = { ...rest, ...override, messages };
  return {
    value,
    context,
    messageDigests,
    ...(version === MACHINE_VERSION ? {} : { machineMigrated: { from: version, to: MACHINE_VERSION } }),
  };
}

type Chain = readonly { readonly step: number }[];

// A checkpoint of this machine: every row checked as it is read, the deltas laid over the full one.
function assemble(runId: string, chain: Chain, decoded: readonly JsonValue[]): CheckpointSkeleton {
  const full = decoded[0] ?? null;
  if (!isFullCheckpoint(full)) throw notWritten(runId, chain[0]?.step ?? 0);
  let value = full.value;
  let skeleton = full.context;
  for (const [i, row] of chain.entries()) {
    if (i === 0) continue;
    const delta = decoded[i] ?? null;
    if (!isCheckpointDelta(delta)) throw notWritten(runId, row.step);
    value = delta.value ?? value;
    if (delta.context !== undefined) skeleton = { ...skeleton, ...delta.context };
  }
  return { value, context: skeleton };
}

// A checkpoint of an older machine, laid together as it was stored: its shape is checked once it is migrated.
function assembleStored(runId: string, chain: Chain, decoded: readonly JsonValue[]): StoredMachineState {
  const full = decoded[0] ?? null;
  if (!isJsonObject(full) || !isJsonObject(full.context)) throw notWritten(runId, chain[0]?.step ?? 0);
  let value = full.value ?? null;
  let context: JsonObject = full.context;
  for (const [i, row] of chain.entries()) {
    if (i === 0) continue;
    const delta = decoded[i] ?? null;
    if (!isJsonObject(delta) || (delta.context !== undefined && !isJsonObject(delta.context)))
      throw notWritten(runId, row.step);
    value = delta.value ?? value;
    if (isJsonObject(delta.context)) context = { ...context, ...delta.context };
  }
  return { value, context };
}

// Brought to this machine by forkpoint's own migrations, then checked as a checkpoint of this machine is.
function migrated(runId: string, step: number, version: number, stored: StoredMachineState): CheckpointSkeleton {
  const where = `checkpoint ${step} of run ${runId}`;
  const state = migrateMachineState(stored, version, where);
  const full = { machineVersion: MACHINE_VERSION, value: state.value, context: state.context };
  if (!isFullCheckpoint(full))
    throw new ForkpointError(
      'CHECKPOINT_INCOMPATIBLE',
      `${where} was written by machine version ${version}, and its migration to version ${MACHINE_VERSION} left a state this machine cannot restore; replay the run from its cassette instead`,
    );
  return { value: full.value, context: full.context };
}

// Rows missing from a run whose lineage said they were there: a gc removed them since (or the run has no such step).
async function checkNotPurged(store: StoreReader, holderId: string, runId: string): Promise<void> {
  const holder = await store.getRun(holderId);
  if (holder?.purge === null || holder === undefined) return;
  throw new ForkpointError(
    'CASSETTE_EXPIRED',
    `cannot restore a checkpoint of run ${runId}: the full tier of run ${holderId} was removed from storage at ${holder.purge.at} while it was being read; replay its structural cassette instead`,
    { details: { runId } },
  );
}

// A version is a number; a row changed outside forkpoint may hold anything.
const shown = (version: JsonValue | undefined): string =>
  typeof version === 'object' && version !== null ? JSON.stringify(version) : String(version);

const notWritten = (runId: string, step: number): ForkpointError =>
  new ForkpointError(
    'STORE_CORRUPT',
    `the checkpoint row of step ${step} of run ${runId} does not hold the checkpoint forkpoint wrote: it was changed outside forkpoint; restore the database from a copy`,
  );
