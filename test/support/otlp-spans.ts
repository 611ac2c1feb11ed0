import type { IAnyValue } from '@opentelemetry/otlp-transformer/build/src/common/internal-types.js';
import type {
  IExportTraceServiceRequest,
  ISpan,
} from '@opentelemetry/otlp-transformer/build/src/trace/internal-types.js';

/** Every span of an OTLP export request, in the order it lists them. */
export function spansOf(request: IExportTraceServiceRequest): ISpan[] {
  return (request.resourceSpans ?? []).flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans ?? []));
}

function plain(value: IAnyValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined && value.stringValue !== null) return value.stringValue;
  if (value.intValue !== undefined && value.intValue !== null) return value.intValue;
  if (value.doubleValue !== undefined && value.doubleValue !== null) return value.doubleValue;
  if (value.boolValue !== undefined && value.boolValue !== null) return value.boolValue;
  if (value.arrayValue) return value.arrayValue.values.map(plain);
  return undefined;
}

/** A span's attributes as plain values by key. */
export function attributesOf(span: ISpan): Record<string, unknown> {
  return Object.fromEntries(span.attributes.map((attribute) => [attribute.key, plain(attribute.value)]));
}

/** OTLP's span kinds by number. */
export const KIND = { internal: 1, client: 3 } as const;

/** OTLP's status codes by number. */
export const STATUS = { unset: 0, ok: 1, error: 2 } as const;

/** An OTLP/JSON document's spans: the JSON protocol's body, parsed. */
export function spansOfJson(text: string): ISpan[] {
  return spansOf(JSON.parse(text) as IExportTraceServiceRequest);
}
