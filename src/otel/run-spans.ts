import type { RunView } from '../engine/index.js';
import type { PayloadState } from './step-facts.js';

/** How `exportRunSpans` writes a run. */
export interface RunSpansOptions {
  /**
   * `reference` (default): no payload attribute, only request hashes and
   * cassette keys, as the conventions' external-storage pattern recommends;
   * `full`: the opt-in content attributes (`gen_ai.output.messages`,
   * `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`) from the full
   * tier. A run whose full tier expired, or one of the structural tier,
   * exports none whatever this says (see {@link RunSpans.payloads}).
   */
  readonly content?: 'reference' | 'full';
  /** The resource's `service.name`; default `forkpoint`. */
  readonly serviceName?: string;
  /** The longest string attribute value, in characters; longer ones are cut. Default 8192. */
  readonly attributeValueLengthLimit?: number;
  /** `gen_ai.provider.name` where neither a wrapped SDK's wire format nor the model id tells; default `unknown`. */
  readonly providerName?: string;
}

/** One run as OpenTelemetry spans. */
export interface RunSpans {
  readonly runId: string;
  readonly mode: RunView['mode'];
  /** The trace id of the run's spans (see `traceIdOf`). */
  readonly traceId: string;
  /** How many spans: the agent span and one per step. */
  readonly spanCount: number;
  /** The spans as an OTLP/JSON `ExportTraceServiceRequest`: the bytes the OTLP/HTTP exporter posts. */
  readonly json: string;
  /** What the export holds of the run's payloads (also the agent span's `forkpoint.payloads`). */
  readonly payloads: PayloadState;
}
