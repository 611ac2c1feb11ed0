import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ForkpointError } from '../errors/index.js';
import type { RunSpans } from './run-spans.js';
import { spansOfExport } from './sdk-spans.js';

/** Where and how long {@link sendRunSpans} sends. */
export interface SendOptions {
  /** The collector's OTLP/HTTP traces endpoint, as given (e.g. `http://127.0.0.1:4318/v1/traces`). */
  readonly url: string;
  /** How long the export may take, retries included; default 10000. */
  readonly timeoutMs?: number;
  /** Headers for the request (a backend's API key, say). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The default time an export to a collector may take. */
export const DEFAULT_OTLP_TIMEOUT_MS = 10_000;

/**
 * Checks that `text` is an `http://` or `https://` URL, as an OTLP/HTTP
 * collector takes; raises `USAGE` otherwise.
 */
export function otlpUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
    throw new ForkpointError('USAGE', `an OTLP collector is an http:// or https:// URL, got "${text}"`);
  return text;
}

/**
 * Posts an export's spans to an OTLP/HTTP collector as OTLP/JSON, through the
 * OpenTelemetry exporter (its retries included, within `timeoutMs`). A
 * collector that refuses the connection, does not answer in time or answers
 * with an error status raises `OTLP_UNREACHABLE`, saying which.
 */
export async function sendRunSpans(exported: RunSpans, options: SendOptions): Promise<void> {
  const spans = spansOfExport(exported);
  const url = otlpUrl(options.url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_OTLP_TIMEOUT_MS;
  const exporter = new OTLPTraceExporter({
    url,
    timeoutMillis: timeoutMs,
    // One request and done: a kept-alive socket would only hold the process open.
    keepAlive: false,
    ...(options.headers === undefined ? {} : { headers: { ...options.headers } }),
  });
  try {
    const failure = await new Promise<unknown>((resolve) => {
      exporter.export([...spans], (result) => {
        // ExportResultCode.SUCCESS is 0: the enum lives in @opentelemetry/core, which forkpoint does not depend on.
        resolve(result.error ?? (result.code ? new Error('the export failed') : undefined));
      });
    });
    if (failure !== undefined) throw unreachable(url, timeoutMs, failure);
  } finally {
    await exporter.shutdown();
  }
}

function unreachable(url: string, timeoutMs: number, failure: unknown): ForkpointError {
  const error = failure instanceof Error ? failure : new Error(String(failure));
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  const status = 'code' in error && typeof error.code === 'number' ? error.code : undefined;
  const why =
    code === 'ECONNREFUSED'
      ? 'the connection was refused'
      : /timed out/i.test(error.message)
        ? `it did not answer within ${timeoutMs} ms (--timeout-ms)`
        : status !== undefined
          ? `it answered HTTP ${status}${error.message === '' ? '' : ` ${error.message}`}`
          : (code ?? error.message);
  return new ForkpointError('OTLP_UNREACHABLE', `cannot send the spans to ${url}: ${why}`, {
    cause: error,
    details: { data: url },
  });
}
