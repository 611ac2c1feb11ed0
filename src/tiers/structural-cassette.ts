import type { Cassette, CassetteEntry } from '../cassette/index.js';
import { CASSETTE_FORMAT } from '../cassette/index.js';
import type { Message, ModelRequest, ModelResponse, ToolResponse } from '../conversation/index.js';
import { isModelRequestHead, isModelResponse, isToolResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonObject } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import { shapeJson, shapeString } from './shape-json.js';
import { shapeModelResponse, shapeToolResponse } from './shape-protocol.js';
import { STRUCTURAL_FORM, StructuralHasher } from './structural-hasher.js';

/**
 * The structural tier of a full cassette: every entry keyed by the hash of its
 * request's shape, with its response shaped, and nothing the run was about.
 * The conversation itself is not kept: the responses are all a replay needs,
 * and a request is kept as its hash and a summary (see `STRUCTURAL_FORM`).
 */
export function structuralCassetteOf(full: Cassette, expiresAt: string | null): Cassette {
  if (full.canonicalForm === STRUCTURAL_FORM) return full;
  const messages = new Map(full.messages.map(({ digest, message }) => [digest, message]));
  const hasher = new StructuralHasher();
  const entries = full.entries.map((entry): CassetteEntry => {
    const hashed =
      entry.kind === 'model'
        ? hasher.hashModelRequest(modelRequestOf(entry, messages))
        : hasher.hashToolRequest(toolRequestOf(entry));
    return {
      step: entry.step,
      kind: entry.kind,
      index: entry.index,
      requestHash: hashed.requestHash,
      request: hashed.summary,
      response:
        entry.kind === 'model' ? shapeModelResponse(modelResponseOf(entry)) : shapeToolResponse(toolResponseOf(entry)),
    };
  });
  const { source } = full;
  return {
    format: CASSETTE_FORMAT,
    canonicalForm: STRUCTURAL_FORM,
    tier: 'structural',
    expiresAt,
    agent: full.agent,
    // Its shape is still a wrapped loop's: only a session over that loop could replay it.
    ...(full.loop === undefined ? {} : { loop: full.loop }),
    source: {
      ...source,
      input: shapeJson(source.input) as JsonObject,
      outcome: source.outcome === null ? null : (shapeJson(source.outcome) as JsonObject),
      // The code and step say what failed; the message may quote content.
      error:
        source.error === null
          ? null
          : {
              ...source.error,
              message: typeof source.error.message === 'string' ? shapeString(source.error.message) : null,
            },
    },
    messages: [],
    entries,
  };
}

function modelRequestOf(entry: CassetteEntry, messages: ReadonlyMap<string, Message>): ModelRequest {
  const request = entry.request;
  if (!isJsonObject(request) || !Array.isArray(request.messages)) throw unusable(entry, 'its request has no messages');
  if (!isModelRequestHead(request))
    throw unusable(entry, 'its request is not a model request (model, system, tools, params)');
  const conversation = request.messages.map((digest) => {
    const message = typeof digest === 'string' ? messages.get(digest) : undefined;
    if (message === undefined)
      throw unusable(entry, `its request names message ${String(digest)}, which the cassette does not hold`);
    return message;
  });
  return { ...request, messages: conversation };
}

function modelResponseOf(entry: CassetteEntry): ModelResponse {
  if (!isModelResponse(entry.response)) throw unusable(entry, 'its response is not a model response');
  return entry.response;
}

function toolResponseOf(entry: CassetteEntry): ToolResponse {
  if (!isToolResponse(entry.response)) throw unusable(entry, 'its response is not a tool result { output, isError }');
  return entry.response;
}

function toolRequestOf(entry: CassetteEntry): { tool: string; input: JsonObject } {
  const request = entry.request;
  if (!isJsonObject(request) || !isJsonObject(request.input)) throw unusable(entry, 'its request has no input');
  return { tool: entry.kind, input: request.input };
}

const unusable = (entry: CassetteEntry, problem: string): ForkpointError =>
  new ForkpointError(
    'CASSETTE_INVALID',
    `entry ${entry.kind}#${entry.index} (step ${entry.step}) is not usable: ${problem}`,
  );
