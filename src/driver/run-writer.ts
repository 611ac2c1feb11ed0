import type { RequestHasher } from '../cassette/index.js';
import { CheckpointWriter } from '../checkpoint/index.js';
import { asStoredJson, withFields } from '../json/index.js';
import type { PayloadBlob } from '../payload/index.js';
import { PayloadBatch, referenceText } from '../payload/index.js';
import { UsageTally, usageOfResponse } from '../pricing/index.js';
import type { ObservationClassifier } from '../agent/index.js';
import { SignatureTally } from '../signature/index.js';
import type { NewRunRecord, RunFinish, RunRecord, StepRecord } from '../store/index.js';
import type { CompletedStepOf, StepSnapshot } from './completed-step.js';
import type { RunOrigin } from './run-origin.js';
import type { RunSink } from './run-sink.js';

/**
 * Turns one run's snapshots into rows: row 0 with the run, then every step
 * with its checkpoint and new blobs, handed to a sink (which commits each
 * step, or the whole run at the end). Blobs this run already handed over are
 * not sent again; the store ignores ones another run wrote. It tallies the
 * tokens of the model steps it commits, and the shapes of every step for the
 * run's failure signature; the run's ending carries both (`RunFinish.usage`,
 * `RunFinish.signature`), so that no step pays a write for them.
 */
export class RunWriter {
  private readonly written = new Set<string>();
  private readonly checkpoints: CheckpointWriter;

  private readonly resumes: boolean;
  private readonly usage: UsageTally;
  private readonly signature: SignatureTally;
  private run: NewRunRecord | undefined;
  private finished: RunFinish | undefined;
  private lastStep = 0;
  // A model request's head (model, system prompt, tools, params) is stored as a blob of its own, its
  // canonical text as the hasher wrote it, so that each model step's row holds only its digest and the runs
  // of a build share one. It rarely changes within a run; the blob goes with every model step's batch, and
  // `fresh` drops it once written.
  private head:
    { readonly text: string; readonly body: string; readonly digest: string; readonly reference: string } | undefined;

  /**
   * @param origin where the run's rows start (after the checkpoint a fork or a resume continues from), and the
   * tokens of its own steps before them
   * @param classify the build's labels for observations (see `AgentHooks.classifyObservation`)
   */
  constructor(
    private readonly sink: RunSink,
    hasher: RequestHasher,
    origin: RunOrigin,
    classify?: ObservationClassifier,
  ) {
    this.checkpoints = new CheckpointWriter(hasher, origin.continuedFrom);
    this.resumes = origin.continuedFrom !== undefined;
    this.usage = new UsageTally(origin.usage);
    this.signature = new SignatureTally(origin.trajectory, classify);
  }

  /**
   * Creates the run: with its row 0 (checkpoint 0) for a new run, or, for a
   * run that continues from a checkpoint (a fork, a resume), with no row of its own yet.
   */
  async start(run: NewRunRecord, snapshot: StepSnapshot): Promise<void> {
    this.run = run;
    this.lastStep = snapshot.context.step;
    if (this.resumes || this.sink.discards === true) {
      await this.sink.start(run, null, []);
      return;
    }
    const batch = new PayloadBatch();
    const encoded = this.checkpoints.encode(0, snapshot.value, snapshot.context, batch);
    const row: StepRecord = {
      step: 0,
      kind: null,
      index: null,
      requestHash: null,
      request: null,
      messageCount: null,
      response: null,
      isError: false,
      provenance: null,
      sideEffect: false,
      ...encoded,
    };
    const fresh = this.fresh(batch.blobs);
    await this.sink.start(run, row, fresh);
    this.remember(fresh);
  }

  /** Commits one completed step; with `finish`, the run's last, which ends the run in the same write. */
  async commit(completed: CompletedStepOf<StepSnapshot>, finish?: RunFinish): Promise<void> {
    if (completed.type === 'model') {
      this.usage.add(completed.provenance, usageOfResponse(completed.response, completed.request.model));
      this.signature.model(completed.response);
    } else {
      const { tool, input } = completed.request;
      this.signature.tool({ tool, input, output: completed.response.output, isError: completed.response.isError });
    }
    if (this.sink.discards === true) {
      this.lastStep = completed.step;
      this.finished = finish === undefined ? undefined : this.withUsage(finish);
      return;
    }
    const batch = new PayloadBatch();
    let request: string;
    let response: string;
    let messageCount: number | null = null;
    let isError = false;
    if (completed.type === 'model') {
      request = this.headReference(completed.headText, batch);
      messageCount = completed.request.messages.length;
      response = batch.encode(completed.response);
    } else {
      request = batch.encode(completed.request);
      response = batch.encode(completed.response.output);
      isError = completed.response.isError;
    }
    const { snapshot } = completed;
    const encoded = this.checkpoints.encode(completed.step, snapshot.value, snapshot.context, batch);
    const row: StepRecord = {
      step: completed.step,
      kind: completed.kind,
      index: completed.index,
      requestHash: completed.requestHash,
      request,
      messageCount,
      response,
      isError,
      provenance: completed.provenance,
      sideEffect: completed.sideEffect === true,
      ...encoded,
    };
    const fresh = this.fresh(batch.blobs);
    const ending = finish === undefined ? undefined : this.withUsage(finish);
    await this.sink.step(row, fresh, ending);
    this.remember(fresh);
    this.lastStep = completed.step;
    this.finished = ending;
  }

  /** The step the run is making: the one after the last it committed. */
  get nextStep(): number {
    return this.lastStep + 1;
  }

  /** Whether the run has ended, with its last step or by {@link finish}. */
  get hasFinished(): boolean {
    return this.finished !== undefined;
  }

  /** Records how the run ended, with the tokens its model steps used. */
  async finish(finish: RunFinish): Promise<void> {
    const ending = this.withUsage(finish);
    await this.sink.finish(ending);
    this.finished = ending;
  }

  private withUsage(finish: RunFinish): RunFinish {
    // A run waiting for a person has not ended: it gets its signature when it does.
    if (finish.status === 'awaiting-approval') return { ...finish, usage: this.usage.totals };
    return {
      ...finish,
      usage: this.usage.totals,
      signature: this.signature.signatureOf({ ...finish, status: finish.status }),
    };
  }

  /**
   * The finished run as the store now holds it, without reading it back: the
   * record it started with, how it ended, its last step, and no owner.
   */
  storedRun(): RunRecord {
    if (this.run === undefined || this.finished === undefined) throw new Error('storedRun: the run has not finished');
    const { status, outcome, error, findings = [], finishedAt, usage = null, signature = null } = this.finished;
    const { input, parent } = this.run;
    // Under the id the sink stored it with (a minted id that was taken is replaced), its JSON as the store
    // gives it back.
    return withFields(this.run, {
      runId: this.sink.runId,
      input: asStoredJson(input),
      parent: parent === null ? null : { ...parent, override: asStoredJson(parent.override) },
      status,
      outcome: outcome === null ? null : asStoredJson(outcome),
      error,
      findings,
      finishedAt,
      stepCount: this.lastStep,
      owner: null,
      purge: null,
      resumes: [],
      usage,
      signature,
    });
  }

  private headReference(headText: string, batch: PayloadBatch): string {
    if (this.head?.text !== headText) {
      const body = `{${headText}}`;
      const digest = batch.storeWhole(body);
      this.head = { text: headText, body, digest, reference: referenceText(digest) };
    } else {
      batch.blobs.set(this.head.digest, this.head.body);
    }
    return this.head.reference;
  }

  private fresh(blobs: Map<string, string>): PayloadBlob[] {
    const out: PayloadBlob[] = [];
    for (const [digest, body] of blobs) {
      if (!this.written.has(digest)) out.push({ digest, body });
    }
    return out;
  }

  // Only after the commit: a failed transaction wrote none of them.
  private remember(blobs: readonly PayloadBlob[]): void {
    for (const blob of blobs) this.written.add(blob.digest);
  }
}
