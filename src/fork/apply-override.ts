import type { FieldChange } from '../vocabulary/index.js';
import { diffJson, observationOf } from '../analysis/index.js';
import type { ApprovalAnswer, ModelResponse, ToolResponse } from '../conversation/index.js';
import { APPROVAL_KIND, isApprovalAnswer, isModelResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonValue } from '../json/index.js';
import { applyJsonPatch, applyMergePatch, assertJsonValue, stableJson } from '../json/index.js';
import type { ContextOverride, ForkOverride } from './fork-override.js';
import { TOOL_OVERRIDE_KINDS } from './fork-override.js';

/** The step a fork changes, as recorded, and the state before it. */
export interface OverrideTarget {
  readonly runId: string;
  readonly step: number;
  /** `model` or the tool's name. */
  readonly kind: string;
  readonly index: number;
  /** The system prompt and model the state before the step holds. */
  readonly context: { readonly system: string; readonly model: string };
  /** What the step observed. */
  readonly recorded:
    | { readonly type: 'model'; readonly response: ModelResponse }
    | { readonly type: 'tool'; readonly response: ToolResponse };
}

/** What a fork does at its step, and what that changes, field by field. */
export type AppliedOverride = { readonly changes: readonly FieldChange[] } & (
  | { readonly at: 'tool'; readonly response: ToolResponse }
  | { readonly at: 'model'; readonly response: ModelResponse }
  | { readonly at: 'approval'; readonly answer: ApprovalAnswer }
  | { readonly at: 'context'; readonly context: ContextOverride }
);

/**
 * Works out what an override does at its step: the tool result or model
 * response the fork injects there, or the prompt or model it sets before it.
 * An override of the wrong kind for the step is `OVERRIDE_MISMATCH`; one that
 * cannot apply (a patch whose path is missing) or that would change nothing
 * is `OVERRIDE_INVALID`, because a fork that changes nothing claims a change
 * that never happened (to continue a stopped run, `resume` it).
 */
export function applyOverride(override: ForkOverride, target: OverrideTarget): AppliedOverride {
  const wantsTool = TOOL_OVERRIDE_KINDS.includes(override.kind);
  const where = `step ${target.step} of run ${target.runId}`;
  // A person's answer is changed only as an answer: patching it as a tool result could bind it to nothing.
  const atApproval = target.kind === APPROVAL_KIND;
  if (atApproval !== (override.kind === 'approval')) {
    throw new ForkpointError(
      'OVERRIDE_MISMATCH',
      atApproval
        ? `${where} is a person's answer (${target.kind}#${target.index}); a ${override.kind} override does not change an answer`
        : `${where} is ${target.recorded.type === 'model' ? 'a model step' : 'a tool step'} (${target.kind}#${target.index}); an approval override needs a step where a person answered an approval`,
      {
        details: {
          runId: target.runId,
          step: target.step,
          remedy: { kind: 'override-for-step', step: atApproval ? 'approval' : target.recorded.type },
        },
      },
    );
  }
  if (!atApproval && wantsTool && target.recorded.type === 'model') {
    throw new ForkpointError(
      'OVERRIDE_MISMATCH',
      `${where} is a model step (model#${target.index}); a ${override.kind} override needs a tool step`,
      { details: { runId: target.runId, step: target.step, remedy: { kind: 'override-for-step', step: 'model' } } },
    );
  }
  if (!atApproval && !wantsTool && target.recorded.type === 'tool') {
    throw new ForkpointError(
      'OVERRIDE_MISMATCH',
      `${where} is a tool step (${target.kind}#${target.index}); a ${override.kind} override needs a model step`,
      { details: { runId: target.runId, step: target.step, remedy: { kind: 'override-for-step', step: 'tool' } } },
    );
  }
  const applied = apply(override, target);
  if (applied.changes.length === 0) {
    throw new ForkpointError(
      'OVERRIDE_INVALID',
      `the ${override.kind} override changes nothing at ${where}: it gives what was recorded there. To continue a stopped run, use \`forkpoint resume\``,
    );
  }
  return applied;
}

function apply(override: ForkOverride, target: OverrideTarget): AppliedOverride {
  const { recorded } = target;
  switch (override.kind) {
    case 'tool-result':
    case 'tool-merge':
    case 'tool-patch':
    case 'tool-error':
      // applyOverride checked the step's type against the override's.
      if (recorded.type !== 'tool') throw new Error('unreachable: a tool override at a model step');
      return toolChange(override, recorded.response);
    case 'model-response':
    case 'model-patch':
      if (recorded.type !== 'model') throw new Error('unreachable: a model override at a tool step');
      return modelChange(override, recorded.response);
    case 'system-prompt':
      return {
        at: 'context',
        context: { system: override.system },
        changes: diffJson({ system: target.context.system }, { system: override.system }),
      };
    case 'model':
      return {
        at: 'context',
        context: { model: override.model },
        changes: diffJson({ model: target.context.model }, { model: override.model }),
      };
    case 'approval':
      return approvalChange(override, target);
  }
}

// The answer a fork gives instead: for the same call (its request hash is the recorded answer's), at the same
// moment, by the same reviewer unless the override names another.
function approvalChange(override: ForkOverride & { kind: 'approval' }, target: OverrideTarget): AppliedOverride {
  const recorded = target.recorded.type === 'tool' ? target.recorded.response.output : undefined;
  if (!isApprovalAnswer(recorded)) {
    throw new ForkpointError(
      'STORE_CORRUPT',
      `step ${target.step} of run ${target.runId} does not hold the person's answer forkpoint wrote: it was changed outside forkpoint`,
    );
  }
  const answer: ApprovalAnswer = {
    approved: override.approved,
    by: override.by ?? recorded.by,
    at: recorded.at,
    note: override.note ?? null,
    requestHash: recorded.requestHash,
  };
  return { at: 'approval', answer, changes: diffJson(recorded, answer) };
}

function toolChange(
  override: ForkOverride & { kind: 'tool-result' | 'tool-merge' | 'tool-patch' | 'tool-error' },
  recorded: ToolResponse,
): AppliedOverride {
  const response: ToolResponse =
    override.kind === 'tool-error'
      ? { output: { error: override.message }, isError: true }
      : { output: newOutput(override, recorded.output), isError: false };
  assertJsonValue(response.output, 'the overridden tool result', 'OVERRIDE_INVALID');
  const flipped =
    response.isError === recorded.isError
      ? []
      : [{ path: 'isError', before: String(recorded.isError), after: String(response.isError) }];
  const changes =
    stableJson(response.output) === stableJson(recorded.output)
      ? flipped
      : [...flipped, ...diffJson(recorded.output, response.output)];
  return { at: 'tool', response, changes };
}

function newOutput(
  override: ForkOverride & { kind: 'tool-result' | 'tool-merge' | 'tool-patch' },
  recorded: JsonValue,
): JsonValue {
  if (override.kind === 'tool-result') return structuredClone(override.output);
  if (override.kind === 'tool-merge') return applyMergePatch(recorded, override.patch);
  return applyJsonPatch(recorded, override.operations, 'OVERRIDE_INVALID');
}

function modelChange(
  override: ForkOverride & { kind: 'model-response' | 'model-patch' },
  recorded: ModelResponse,
): AppliedOverride {
  const response: JsonValue =
    override.kind === 'model-response'
      ? structuredClone(override.response)
      : applyJsonPatch(recorded, override.operations, 'OVERRIDE_INVALID');
  if (!isModelResponse(response)) {
    throw new ForkpointError(
      'OVERRIDE_INVALID',
      `the ${override.kind} override does not leave a model response in the provider-neutral shape (id, model, content, stopReason, usage)`,
    );
  }
  // The harness writes tool results into the user's turn; one in the model's turn would answer a call nobody made.
  if (response.content.some((part) => part.type === 'tool_result')) {
    throw new ForkpointError(
      'OVERRIDE_INVALID',
      `the ${override.kind} override puts a tool_result part into the model's turn; a model response holds text, thinking and tool_use parts`,
    );
  }
  const changes = diffJson(observationOf(recorded), observationOf(response));
  return { at: 'model', response, changes };
}
