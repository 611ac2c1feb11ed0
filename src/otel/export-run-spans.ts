import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { Engine, RunView } from '../engine/index.js';
import { createEngine } from '../engine/index.js';
import { isForkpointError } from '../errors/index.js';
import type { Store } from '../store/index.js';
import { emitSpans } from './emit-spans.js';
import type { RunSpans, RunSpansOptions } from './run-spans.js';
import { keepSdkSpans } from './sdk-spans.js';
import { traceIdOf } from './span-ids.js';
import { planRunSpans } from './span-plan.js';
import type { PayloadState, StepFacts } from './step-facts.js';

const isEngine = (source: Engine | Store): source is Engine => 'exportCassette' in source;

/**
 * A stored run as OpenTelemetry spans following the GenAI semantic
 * conventions, emitted after the fact from the store: an `invoke_agent` span
 * for the run, a `chat` or `execute_tool` span per step, forkpoint's own
 * attributes (mode, provenance, request hash, lineage) on each, and links
 * from a fork or replay to its source run's spans. Ids derive from the run id
 * and the step, so exporting a run again gives the same spans. Raises
 * `RUN_NOT_FOUND` for an unknown run.
 *
 * @example
 * ```ts
 * const exported = await exportRunSpans(engine, '9b40c1d5');
 * writeFileSync('run.otlp.json', exported.json); // or: await sendRunSpans(exported, { url: 'http://127.0.0.1:4318/v1/traces' })
 * ```
 */
export async function exportRunSpans(
  source: Engine | Store,
  runId: string,
  options: RunSpansOptions = {},
): Promise<RunSpans> {
  const engine = isEngine(source) ? source : createEngine({ store: source });
  const run = await engine.getRun(runId);
  const { steps, payloads } = await stepsOf(engine, run, options.content ?? 'reference');
  const plans = planRunSpans(run, steps, payloads, { providerFallback: options.providerName ?? 'unknown' });
  const spans = emitSpans(plans, {
    serviceName: options.serviceName ?? 'forkpoint',
    attributeValueLengthLimit: options.attributeValueLengthLimit ?? 8192,
  });
  const json = new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans));
  const exported: RunSpans = {
    runId: run.runId,
    mode: run.mode,
    traceId: traceIdOf(run.runId),
    spanCount: spans.length,
    json,
    payloads,
  };
  keepSdkSpans(exported, spans);
  return exported;
}

async function stepsOf(
  engine: Engine,
  run: RunView,
  content: 'reference' | 'full',
): Promise<{ steps: StepFacts[]; payloads: PayloadState }> {
  if (run.retention.expired) return { steps: await structuralSteps(engine, run.runId), payloads: 'expired' };
  const shapes = run.retention.tier === 'structural';
  const steps = run.steps.map((step): StepFacts => ({
    step: step.step,
    kind: step.kind,
    index: step.index,
    requestHash: step.requestHash,
    provenance: step.provenance,
    request: shapes ? null : step.request,
    response: shapes ? null : step.response,
  }));
  return { steps, payloads: shapes ? 'structural' : content };
}

// An expired run's steps, from its structural record: positions and hashes, no provenance, no values. None
// once that has expired too.
async function structuralSteps(engine: Engine, runId: string): Promise<StepFacts[]> {
  try {
    const cassette = await engine.cassette(runId, 'structural');
    return cassette.entries.map((entry) => ({
      step: entry.step,
      kind: entry.kind,
      index: entry.index,
      requestHash: entry.requestHash,
      provenance: null,
      request: null,
      response: null,
    }));
  } catch (error) {
    if (isForkpointError(error) && error.code === 'CASSETTE_EXPIRED') return [];
    throw error;
  }
}
