import { ForkpointError } from '../../errors/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import type { CommonOptions } from '../options/common-options.js';
import { writeWholeFile } from '../write-whole-file.js';

/** What `export --otlp` was asked. */
export interface OtlpRequest {
  /** Undefined: stdout. */
  readonly target: string | undefined;
  readonly content: 'reference' | 'full';
  readonly timeoutMs: number | undefined;
  readonly json: boolean;
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

const WHY_NO_PAYLOADS = {
  expired: 'its full tier has expired, and only its structural record remains',
  structural: 'it is a run of the structural tier, which keeps shapes only',
} as const;

/**
 * `export <run-id> --otlp [FILE | URL]`: the run as OTLP/JSON spans on
 * stdout, in a file written whole, or posted to an OTLP/HTTP collector. The
 * OpenTelemetry packages load only here: every other command starts without them.
 */
export async function exportOtlp(
  cli: CommandContext,
  options: CommonOptions,
  runId: string,
  request: OtlpRequest,
): Promise<void> {
  const { target } = request;
  const url = target !== undefined && URL_LIKE.test(target) ? target : undefined;
  const otel = await import('../../otel/index.js');
  if (url !== undefined) otel.otlpUrl(url);
  if (request.timeoutMs !== undefined && url === undefined)
    throw new ForkpointError('USAGE', '--timeout-ms applies to an export to a collector URL (--otlp http://...)');
  if (request.json && target === undefined)
    throw new ForkpointError(
      'USAGE',
      '--otlp without a FILE or URL writes the spans to stdout: --json has no room there',
    );
  await withStore(await cli.openStoreHolding(options, runId, 'read'), async (open) => {
    const engine = cli.engine(options, open);
    const exported = await otel.exportRunSpans(engine, runId, { content: request.content });
    if (exported.payloads === 'expired' || exported.payloads === 'structural')
      cli.note(
        `forkpoint: run ${runId} exports no payload attribute${request.content === 'full' ? ' (--content full has none to read)' : ''}: ${WHY_NO_PAYLOADS[exported.payloads]}`,
      );
    if (target === undefined) {
      cli.print(exported.json);
      return;
    }
    if (url === undefined) writeWholeFile(target, exported.json);
    else {
      await otel.sendRunSpans(exported, {
        url,
        ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
      });
    }
    const destination = url === undefined ? { file: target } : { url };
    if (request.json) {
      cli.json({
        mode: 'export',
        runId,
        runMode: exported.mode,
        format: 'otlp/json',
        ...destination,
        traceId: exported.traceId,
        spans: exported.spanCount,
        content: request.content,
        payloads: exported.payloads,
        bytes: Buffer.byteLength(exported.json),
      });
      return;
    }
    cli.print(
      `export · run ${runId} (${exported.mode}) · ${exported.spanCount} spans as OTLP/JSON, trace ${exported.traceId} · payloads: ${exported.payloads} · ${url === undefined ? target : `sent to ${url}`}`,
    );
  });
}
