/**
 * `forkpoint/otel`: a stored run as OpenTelemetry spans following the GenAI
 * semantic conventions, for a tracing backend a team already uses. The spans
 * are emitted after the fact from the store (nothing is added to recording):
 * an `invoke_agent` span for the run, a `chat` or `execute_tool` span per
 * step, forkpoint's own attributes (mode, provenance, request hash, lineage),
 * links from a fork or replay to its source run's spans, and ids derived
 * from the run id and the step, so exporting a run again gives the same spans.
 *
 * @example
 * ```ts
 * import { exportRunSpans, sendRunSpans } from 'forkpoint/otel';
 * const exported = await exportRunSpans(engine, '9b40c1d5', { content: 'reference' });
 * await sendRunSpans(exported, { url: 'http://127.0.0.1:4318/v1/traces', timeoutMs: 5000 });
 * ```
 */
export {
  DEFAULT_OTLP_TIMEOUT_MS,
  ERROR_TYPE,
  FORKPOINT,
  GEN_AI,
  GEN_AI_OPERATION,
  exportRunSpans,
  sendRunSpans,
  spanIdOf,
  traceIdOf,
  type PayloadState,
  type RunSpans,
  type RunSpansOptions,
  type SendOptions,
} from '../otel/index.js';
