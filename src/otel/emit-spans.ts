import type { HrTime, Link } from '@opentelemetry/api';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AlwaysOnSampler, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { createRunIdGenerator } from './run-id-generator.js';
import { ERROR_TYPE, FORKPOINT } from './semconv.js';
import type { SpanPlan } from './span-plan.js';

/** How the emitted spans are bounded and labelled. */
export interface EmitOptions {
  /** The resource's `service.name`. */
  readonly serviceName: string;
  /** The longest string attribute value; longer ones are truncated by the SDK. */
  readonly attributeValueLengthLimit: number;
}

const hrTimeOf = (nanos: bigint): HrTime => [Number(nanos / 1_000_000_000n), Number(nanos % 1_000_000_000n)];

/**
 * Turns planned spans into the OpenTelemetry SDK's own finished spans, through
 * its tracer: the ids the plan names (injected as the tracer's id generator),
 * the times it gives, and limits set here rather than read from `OTEL_*`
 * variables, so that exporting a run twice gives the same spans. Every span is
 * sampled: an export is not a sample.
 */
export function emitSpans(plans: readonly SpanPlan[], options: EmitOptions): ReadableSpan[] {
  const finished: ReadableSpan[] = [];
  const collector: SpanProcessor = {
    onStart: () => undefined,
    onEnd: (span) => {
      finished.push(span);
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const ids = createRunIdGenerator();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    idGenerator: ids,
    sampler: new AlwaysOnSampler(),
    spanProcessors: [collector],
    spanLimits: {
      attributeValueLengthLimit: options.attributeValueLengthLimit,
      attributeCountLimit: 128,
      linkCountLimit: 128,
      eventCountLimit: 128,
      attributePerEventCountLimit: 128,
      attributePerLinkCountLimit: 128,
    },
  });
  const tracer = provider.getTracer('forkpoint');
  const started = new Map<string, ReturnType<typeof tracer.startSpan>>();
  for (const plan of plans) {
    const parent = plan.parentSpanId === null ? undefined : started.get(plan.parentSpanId);
    ids.next(plan.traceId, plan.spanId);
    const span = tracer.startSpan(
      plan.name,
      {
        kind: plan.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
        startTime: hrTimeOf(plan.startNs),
        attributes: { ...plan.attributes, ...(plan.error === null ? {} : { [ERROR_TYPE]: plan.error.code }) },
        links: plan.links.map((link): Link => ({
          context: { traceId: link.traceId, spanId: link.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true },
          attributes: { [FORKPOINT.linkType]: link.type, [FORKPOINT.runId]: link.runId, [FORKPOINT.step]: link.step },
        })),
        root: parent === undefined,
      },
      parent === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, parent),
    );
    if (plan.error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: plan.error.message });
    started.set(plan.spanId, span);
  }
  // Children end before their parent, as they would have when the run happened.
  for (const plan of [...plans].reverse()) started.get(plan.spanId)?.end(hrTimeOf(plan.endNs));
  return finished.reverse();
}
