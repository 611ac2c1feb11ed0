import type { IdGenerator } from '@opentelemetry/sdk-trace-base';

/**
 * An {@link IdGenerator} that hands the tracer the ids it is told to: the
 * exporter names the next span's ids (see `traceIdOf`, `spanIdOf`) before it
 * starts the span, so that the SDK's own span objects carry forkpoint's
 * deterministic ids. A span started without being named first is a bug.
 */
export interface RunIdGenerator extends IdGenerator {
  /** The ids of the next span started: its trace id is used only by a root span. */
  next(traceId: string, spanId: string): void;
}

/** Creates a {@link RunIdGenerator}. */
export function createRunIdGenerator(): RunIdGenerator {
  let traceId: string | undefined;
  let spanId: string | undefined;
  const take = (id: string | undefined, what: string): string => {
    if (id === undefined) throw new Error(`a span was started without its ${what} being named first`);
    return id;
  };
  return {
    next(trace, span) {
      traceId = trace;
      spanId = span;
    },
    generateTraceId: () => take(traceId, 'trace id'),
    generateSpanId() {
      const id = take(spanId, 'span id');
      spanId = undefined;
      return id;
    },
  };
}
