import type { ModelResponse } from '../../conversation/index.js';
import { ForkpointError } from '../../errors/index.js';
import { unmappedResponse } from '../provider-errors.js';
import type { AiSdkLanguageModel } from './ai-sdk-model.js';
import { neutralResultOf } from './ai-sdk-result.js';

type Part = Record<string, unknown>;

/** A text or reasoning part being streamed: the content part it becomes, its text growing. */
type OpenPart = Part & { text: string };

// Parts whose whole is in the part itself: they are content as they come, in stream order.
const WHOLE_PARTS: ReadonlySet<string> = new Set([
  'tool-call',
  'tool-result',
  'file',
  'source',
  'tool-approval-request',
]);

/**
 * The generate result a `doStream` stream stands for, assembled as `ai`'s
 * `streamText` records a step (stream-text.ts): content in the order its
 * parts start; a text or reasoning part from its start, deltas and end, with
 * the last provider metadata any of them gave (a reasoning's signature comes
 * on a delta); tool calls, tool results, files, sources and approval requests
 * as they come (`tool-input-*` parts preview the `tool-call` that follows with
 * the whole input, and add nothing); `finish`'s usage, finish reason and
 * provider metadata; `response-metadata`'s id, timestamp and model id as the
 * response; `stream-start`'s warnings. `raw` parts add nothing.
 *
 * An `error` part, or a stream that ends before `finish`, is `PROVIDER_FAILED`
 * (the call has no whole answer). A part it does not know, or a delta or end
 * for a part that is not open, is `PROVIDER_UNMAPPED`.
 */
export function generateResultOfStreamParts(model: AiSdkLanguageModel, parts: readonly unknown[]): Part {
  const { provider } = model;
  const content: Part[] = [];
  const open = new Map<string, OpenPart>();
  const response: Part = {};
  let finish: Part | undefined;
  let warnings: unknown = [];
  for (const [i, part] of parts.entries()) {
    const where = `stream part ${i}`;
    if (typeof part !== 'object' || part === null || typeof (part as Part).type !== 'string')
      throw unmappedResponse(provider, where, null, 'it is not an object with a type');
    const { type, ...fields } = part as Part & { type: string };
    const [kind, phase] = splitType(type);
    if ((kind === 'text' || kind === 'reasoning') && phase !== undefined) {
      applyTextual(open, content, kind, phase, fields, () => unmappedResponse(provider, where, null, why(type)));
      continue;
    }
    if (WHOLE_PARTS.has(type)) content.push(part as Part);
    else if (type === 'finish') finish = fields;
    else if (type === 'response-metadata') Object.assign(response, defined(fields));
    else if (type === 'stream-start') warnings = fields.warnings;
    else if (type === 'error') throw failedMidStream(provider, fields.error);
    else if (type !== 'raw' && kind !== 'tool-input')
      throw unmappedResponse(provider, where, null, `forkpoint does not know a ${type} part`);
  }
  if (finish === undefined)
    throw new ForkpointError(
      'PROVIDER_FAILED',
      `the ${provider} stream ended before its finish part: the answer is not whole (the connection was cut, or ` +
        'the recording was); ask again, or resume the run',
    );
  if (open.size > 0)
    throw unmappedResponse(provider, 'the stream', null, `its ${[...open.keys()].join(', ')} never ended`);
  return {
    content,
    finishReason: finish.finishReason,
    usage: finish.usage,
    ...(finish.providerMetadata === undefined ? {} : { providerMetadata: finish.providerMetadata }),
    response,
    warnings,
  };
}

/** {@link generateResultOfStreamParts}, mapped to the neutral shape as a `doGenerate` result is. */
export const neutralResultOfStreamParts = (model: AiSdkLanguageModel, parts: readonly unknown[]): ModelResponse =>
  neutralResultOf(model, generateResultOfStreamParts(model, parts));

function applyTextual(
  open: Map<string, OpenPart>,
  content: Part[],
  kind: 'text' | 'reasoning',
  phase: string,
  fields: Part,
  misfit: () => ForkpointError,
): void {
  if (typeof fields.id !== 'string') throw misfit();
  // `ai` keeps text and reasoning ids apart: a text and a reasoning may share one.
  const key = `${kind} ${fields.id}`;
  const current = open.get(key);
  let part = current;
  if (phase === 'start') {
    if (current !== undefined) throw misfit();
    part = { type: kind, text: '' };
    open.set(key, part);
    content.push(part);
  } else if (current === undefined) throw misfit();
  else if (phase === 'delta' && typeof fields.delta === 'string') current.text += fields.delta;
  else if (phase === 'end') open.delete(key);
  else throw misfit();
  // The last metadata given wins, as in `ai`: a reasoning's signature comes on its last delta.
  if (part !== undefined && fields.providerMetadata !== undefined) part.providerMetadata = fields.providerMetadata;
}

/** `text-delta` as `['text', 'delta']`; `tool-input-start` as `['tool-input', 'start']`; `finish` as `['finish']`. */
function splitType(type: string): [string, string | undefined] {
  const dash = type.lastIndexOf('-');
  return dash < 0 ? [type, undefined] : [type.slice(0, dash), type.slice(dash + 1)];
}

const why = (type: string): string =>
  `a ${type} part with no string id (or delta), or for a part that is not open (or already is)`;

const defined = (fields: Part): Part =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/** An `error` part: the provider failed after the stream began (an overloaded server, a dropped connection). */
function failedMidStream(provider: string, error: unknown): ForkpointError {
  const words =
    error instanceof Error ? error.message : ((JSON.stringify(error) as string | undefined) ?? String(error));
  return new ForkpointError(
    'PROVIDER_FAILED',
    `${provider} failed mid-stream: ${words}; the answer is not whole, ask again or resume the run`,
    {
      cause: error,
    },
  );
}
