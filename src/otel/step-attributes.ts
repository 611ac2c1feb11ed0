import { APPROVAL_KIND, answerWord, approvalAnswerOf, approvalQuestionOf } from '../conversation/index.js';
import type { JsonValue } from '../json/index.js';
import { isJsonArray, isJsonObject } from '../json/index.js';
import { usageOfResponse } from '../pricing/index.js';
import { modelPayloadAttributes, toolPayloadAttributes } from './payload-attributes.js';
import { providerNameOf } from './provider-name.js';
import { APPROVAL_SPAN, FORKPOINT, GEN_AI, GEN_AI_OPERATION } from './semconv.js';
import type { PayloadState, StepFacts, ToolCallQueue } from './step-facts.js';
import type { SpanAttributes } from './usage-attributes.js';
import { usageAttributes } from './usage-attributes.js';

/** A step's span as the conventions name it: its name, whether it is a CLIENT span, and its attributes. */
export interface DescribedStep {
  readonly name: string;
  readonly client: boolean;
  readonly attributes: SpanAttributes;
}

const modelOfRequest = (request: JsonValue | null): string =>
  isJsonObject(request) && typeof request.model === 'string' ? request.model : '';

/**
 * The attributes of one step's span. A model step is a `chat` span, a CLIENT
 * span when it called the model live and an INTERNAL one when its answer came
 * from a cassette, a parent or an override; a tool step an INTERNAL
 * `execute_tool` span; a person's answer to an approval an INTERNAL
 * `approval {tool}` span (see `approvalStep`). Content goes in only when
 * `payloads` is `full`.
 */
export function stepAttributes(
  facts: StepFacts,
  payloads: PayloadState,
  toolCalls: ToolCallQueue,
  providerFallback: string,
): DescribedStep {
  const own: SpanAttributes = {
    [FORKPOINT.step]: facts.step,
    [FORKPOINT.kind]: facts.kind,
    [FORKPOINT.index]: facts.index,
    // The structural tier (an expired run's record, a structural replay) keys a step by its request's shape.
    ...(payloads === 'expired' || payloads === 'structural'
      ? { [FORKPOINT.shapeHash]: facts.requestHash }
      : {
          [FORKPOINT.requestHash]: facts.requestHash,
          [FORKPOINT.cassetteKey]: `${facts.kind}:${facts.index}:${facts.requestHash}`,
        }),
    ...(facts.provenance === null ? {} : { [FORKPOINT.provenance]: facts.provenance }),
  };
  // Shapes are not values: once the payloads are gone, no model id, usage or call id can be read from them.
  const readable = payloads === 'reference' || payloads === 'full';
  const request = readable ? facts.request : null;
  const response = readable ? facts.response : null;
  if (facts.kind === 'model')
    return modelStep(own, facts, request, response, payloads === 'full', toolCalls, providerFallback);
  if (facts.kind === APPROVAL_KIND) return approvalStep(own, request, response, payloads === 'full');
  const callId = readable ? toolCalls.take(facts.kind) : undefined;
  const isError = isJsonObject(response) && response.isError === true;
  return {
    name: `${GEN_AI_OPERATION.executeTool} ${facts.kind}`,
    client: false,
    attributes: {
      ...own,
      [GEN_AI.operationName]: GEN_AI_OPERATION.executeTool,
      [GEN_AI.toolName]: facts.kind,
      [GEN_AI.toolType]: 'function',
      ...(callId === undefined ? {} : { [GEN_AI.toolCallId]: callId }),
      ...(response === null ? {} : { [FORKPOINT.toolIsError]: isError }),
      ...(payloads === 'full' && request !== null && response !== null ? toolPayloadAttributes(request, response) : {}),
    },
  };
}

/**
 * A person's answer as a span of its own, not a tool's execution: nothing was
 * executed, and the call it was about is the next span when it was approved.
 * The answer's facts (the decision, when, and the request hash of the call
 * it binds) go in whenever the payloads can be read, as a tool step's error
 * flag does; who answered (a person's name or address), the reviewer's note
 * and the call's arguments are content, in only with `content`: a tracing
 * backend is often shared more widely than the store. Once the payloads are gone the span
 * is named `approval` and keeps its position and provenance only.
 */
function approvalStep(
  own: SpanAttributes,
  request: JsonValue | null,
  response: JsonValue | null,
  content: boolean,
): DescribedStep {
  const question = approvalQuestionOf(request ?? undefined);
  const answer = approvalAnswerOf(response ?? undefined);
  return {
    name: question === undefined ? APPROVAL_SPAN : `${APPROVAL_SPAN} ${question.tool}`,
    client: false,
    attributes: {
      ...own,
      ...(question === undefined ? {} : { [FORKPOINT.approvalTool]: question.tool }),
      ...(answer === undefined
        ? {}
        : {
            [FORKPOINT.approvalDecision]: answerWord(answer),
            [FORKPOINT.approvalAt]: answer.at,
            [FORKPOINT.approvalRequestHash]: answer.requestHash,
          }),
      ...(content && answer !== undefined ? { [FORKPOINT.approvalBy]: answer.by } : {}),
      ...(content && answer !== undefined && answer.note !== null ? { [FORKPOINT.approvalNote]: answer.note } : {}),
      ...(content && question !== undefined ? { [GEN_AI.toolCallArguments]: JSON.stringify(question.input) } : {}),
    },
  };
}

function modelStep(
  own: SpanAttributes,
  facts: StepFacts,
  request: JsonValue | null,
  response: JsonValue | null,
  content: boolean,
  toolCalls: ToolCallQueue,
  providerFallback: string,
): DescribedStep {
  const requested = modelOfRequest(request);
  const base: SpanAttributes = { ...own, [GEN_AI.operationName]: GEN_AI_OPERATION.chat };
  if (response === null || !isJsonObject(response)) {
    toolCalls.asked([]);
    return {
      name: requested === '' ? GEN_AI_OPERATION.chat : `${GEN_AI_OPERATION.chat} ${requested}`,
      client: false,
      attributes: { ...base, [GEN_AI.providerName]: providerFallback },
    };
  }
  const usage = usageOfResponse(response, requested);
  const parts = isJsonArray(response.content) ? response.content : [];
  toolCalls.asked(
    parts.flatMap((part) =>
      isJsonObject(part) && part.type === 'tool_use' && typeof part.id === 'string' && typeof part.name === 'string'
        ? [{ id: part.id, name: part.name }]
        : [],
    ),
  );
  const model = requested === '' ? usage.model : requested;
  return {
    name: `${GEN_AI_OPERATION.chat} ${model}`,
    client: facts.provenance === 'live',
    attributes: {
      ...base,
      [GEN_AI.providerName]: providerNameOf(response, usage.model, providerFallback),
      ...(model === '' ? {} : { [GEN_AI.requestModel]: model }),
      ...(usage.model === '' ? {} : { [GEN_AI.responseModel]: usage.model }),
      ...(typeof response.id === 'string' && response.id !== '' ? { [GEN_AI.responseId]: response.id } : {}),
      ...(typeof response.stopReason === 'string' ? { [GEN_AI.responseFinishReasons]: [response.stopReason] } : {}),
      ...usageAttributes(facts.provenance, usage.tokens),
      ...(content ? modelPayloadAttributes(response) : {}),
    },
  };
}
