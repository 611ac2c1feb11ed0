export { exportRunSpans } from './export-run-spans.js';
export type { RunSpans, RunSpansOptions } from './run-spans.js';
export { DEFAULT_OTLP_TIMEOUT_MS, otlpUrl, sendRunSpans, type SendOptions } from './send-spans.js';
export type { PayloadState } from './step-facts.js';
export { spanIdOf, traceIdOf } from './span-ids.js';
export { usageAttributes, type SpanAttributes } from './usage-attributes.js';
export { ERROR_TYPE, FORKPOINT, GEN_AI, GEN_AI_OPERATION } from './semconv.js';
