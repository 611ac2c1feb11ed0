import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { RunSpans } from './run-spans.js';

// The SDK's span objects of each export, for `sendRunSpans`: kept out of the public type, whose declarations
// would otherwise name @opentelemetry/api's, and those name a global (`console`) a user's project may not have.
const sdkSpans = new WeakMap<RunSpans, readonly ReadableSpan[]>();

/** The OpenTelemetry SDK's finished spans of an export: the agent span first, then one per step. */
export function spansOfExport(exported: RunSpans): readonly ReadableSpan[] {
  const spans = sdkSpans.get(exported);
  if (spans === undefined) throw new Error('spans are sent only from an export exportRunSpans made');
  return spans;
}

/** Keeps the SDK's spans of an export for {@link spansOfExport}. */
export function keepSdkSpans(exported: RunSpans, spans: readonly ReadableSpan[]): void {
  sdkSpans.set(exported, spans);
}
