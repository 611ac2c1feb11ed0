import type { FailedToolCall, Outcome, ToolResultCheck } from '../../src/agent/index.js';
import type { JsonObject, JsonValue } from '../../src/json/index.js';
import { defineAgent } from '../../src/agent/index.js';
import { isJsonObject } from '../../src/json/index.js';
import { definitionOf } from './definition-of.js';
import type { Mutant } from './mutant.js';

// Every hook below is written out in full rather than wrapping the baseline's: a hook's source is
// what the code hash sees, and a wrapper would hide the code it calls. Each differs from the
// baseline's hook (or the machine's default) in the planted bug only.

// A same-length swap that turns the approval rule inside out ("within" -> "beyond" the cover limit).
const PROMPT_WORD = 'within the cover limit';
const PROMPT_SWAP = 'beyond the cover limit';
// A field in a sentence: text as it is, anything else as its JSON, where String would print an object as
// [object Object].
const shown = (value: JsonValue | undefined): string =>
  value === undefined ? 'undefined' : typeof value === 'string' ? value : JSON.stringify(value);

/** The harness bugs of the study, each planted alone in a copy of the build it is given. */
export const MUTANTS: readonly Mutant[] = [
  {
    name: 'tool-result-separate-message',
    description: 'each tool result is appended as its own user message instead of one turn holding the batch',
    contentIndifferent: true,
    mutate: (build) =>
      defineAgent({ ...definitionOf(build), build: 'mutant-tool-result-separate-message', toolResultTurns: 'each' }),
  },
  {
    name: 'retry-budget-off-by-one',
    description: 'retryTool gives up one attempt early: an OCR timeout is retried once, not twice',
    contentIndifferent: true,
    mutate: (build) =>
      defineAgent({
        ...definitionOf(build),
        build: 'mutant-retry-budget-off-by-one',
        retryTool: (failed: FailedToolCall): boolean => {
          if (failed.call.name !== 'ocr_document' || failed.attempt > 1) return false;
          const output = failed.response.output;
          return isJsonObject(output) && output.retryable === true;
        },
      }),
  },
  {
    name: 'step-cap-off-by-one',
    description: 'the step cap is one step short (23 instead of 24)',
    contentIndifferent: true,
    mutate: (build) =>
      defineAgent({ ...definitionOf(build), build: 'mutant-step-cap-off-by-one', stepCap: build.stepCap - 1 }),
  },
  {
    name: 'step-cap-one-over',
    description: 'the step cap is one step long (25 instead of 24)',
    contentIndifferent: true,
    mutate: (build) =>
      defineAgent({ ...definitionOf(build), build: 'mutant-step-cap-one-over', stepCap: build.stepCap + 1 }),
  },
  {
    name: 'parser-chokes-on-decimal',
    description:
      'renderToolResult re-parses every numeric OCR field with parseInt: 612.5 cm2 reads 612, confidence 0.97 reads 0',
    contentIndifferent: true,
    mutate: (build) =>
      defineAgent({
        ...definitionOf(build),
        build: 'mutant-parser-chokes-on-decimal',
        renderToolResult: (check: ToolResultCheck): JsonValue => {
          const output = check.response.output;
          if (
            check.call.name !== 'ocr_document' ||
            check.response.isError ||
            !isJsonObject(output) ||
            !isJsonObject(output.fields)
          )
            return output;
          const fields: Record<string, JsonValue> = {};
          for (const [name, field] of Object.entries(output.fields)) {
            fields[name] = isJsonObject(field)
              ? Object.fromEntries(
                  Object.entries(field).map(([key, value]) => [
                    key,
                    typeof value === 'number' ? Number.parseInt(String(value), 10) : value,
                  ]),
                )
              : field;
          }
          return { ...output, fields };
        },
      }),
  },
  {
    name: 'swapped-ocr-fields',
    description: "renderToolResult swaps each OCR field's value and confidence",
    contentIndifferent: true,
    mutate: (build) =>
      defineAgent({
        ...definitionOf(build),
        build: 'mutant-swapped-ocr-fields',
        renderToolResult: (check: ToolResultCheck): JsonValue => {
          const output = check.response.output;
          if (
            check.call.name !== 'ocr_document' ||
            check.response.isError ||
            !isJsonObject(output) ||
            !isJsonObject(output.fields)
          )
            return output;
          const fields: Record<string, JsonValue> = {};
          for (const [name, field] of Object.entries(output.fields)) {
            fields[name] =
              isJsonObject(field) && field.value !== undefined && field.confidence !== undefined
                ? { ...field, value: field.confidence, confidence: field.value }
                : field;
          }
          return { ...output, fields };
        },
      }),
  },
  {
    name: 'wrong-deductible-sign',
    description: 'renderToolResult negates the policy deductible',
    contentIndifferent: true,
    mutate: (build) =>
      defineAgent({
        ...definitionOf(build),
        build: 'mutant-wrong-deductible-sign',
        renderToolResult: (check: ToolResultCheck): JsonValue => {
          const output = check.response.output;
          if (
            check.call.name !== 'fetch_policy' ||
            check.response.isError ||
            !isJsonObject(output) ||
            typeof output.deductible !== 'number'
          )
            return output;
          return { ...output, deductible: -output.deductible };
        },
      }),
  },
  {
    name: 'swapped-policy-limits',
    description: "renderToolResult swaps the policy's deductible and cover limit (both positive integers)",
    contentIndifferent: false,
    mutate: (build) =>
      defineAgent({
        ...definitionOf(build),
        build: 'mutant-swapped-policy-limits',
        renderToolResult: (check: ToolResultCheck): JsonValue => {
          const output = check.response.output;
          if (check.call.name !== 'fetch_policy' || check.response.isError || !isJsonObject(output)) return output;
          if (output.deductible === undefined || output.cover_limit === undefined) return output;
          return { ...output, deductible: output.cover_limit, cover_limit: output.deductible };
        },
      }),
  },
  {
    name: 'prompt-word-swap',
    description: `the system prompt says "${PROMPT_SWAP}" where it said "${PROMPT_WORD}" (same length)`,
    contentIndifferent: false,
    mutate: (build) => {
      const prompt = build.systemPrompt;
      // A computed prompt or a reworded one would make this mutant something else: refuse rather than plant nothing.
      if (typeof prompt !== 'string' || !prompt.includes(PROMPT_WORD)) {
        throw new Error(`prompt-word-swap needs a fixed system prompt containing "${PROMPT_WORD}"`);
      }
      return defineAgent({
        ...definitionOf(build),
        build: 'mutant-prompt-word-swap',
        systemPrompt: prompt.replace(PROMPT_WORD, PROMPT_SWAP),
      });
    },
  },
  {
    name: 'negative-payout-accepted',
    description: 'validateOutcome no longer rejects an approval with a negative payout',
    contentIndifferent: false,
    mutate: (build) =>
      defineAgent({
        ...definitionOf(build),
        build: 'mutant-negative-payout-accepted',
        validateOutcome: (outcome: Outcome): readonly string[] => {
          const { decision, payout } = outcome;
          if (decision === 'approve') return typeof payout === 'number' ? [] : ['an approval must state a payout'];
          return payout === null ? [] : [`a ${shown(decision)} decision must not pay (payout ${shown(payout)})`];
        },
      }),
  },
  {
    name: 'claim-id-lowercased',
    description: 'renderInput lowercases the claim id (clm-95001 for CLM-95001)',
    contentIndifferent: false,
    mutate: (build) =>
      defineAgent({
        ...definitionOf(build),
        build: 'mutant-claim-id-lowercased',
        renderInput: (input: JsonObject): string =>
          `Triage claim ${shown(input.claimId).toLowerCase()} and write your decision.`,
      }),
  },
];

/** Why the study holds no mutant that drops the assistant turn before a retried tool result. */
export const INEXPRESSIBLE_NOTE =
  'The chapter\'s "retry that re-sends the tool result without the assistant turn" cannot be planted: the machine appends ' +
  'every assistant turn itself, its conversation is append-only, and a retry (retryTool) re-issues the call without touching it.';
