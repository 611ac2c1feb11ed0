import { APPROVAL_KIND, approvalAnswerOf, approvalQuestionOf } from '../conversation/index.js';
import type { StepView } from '../read/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import type { Scenario } from '../scenario/index.js';
import { answerWords } from './approval-words.js';

/** What a summarizer reads of a step: its kind and response, and its request where the caller has it. */
export type SummarizedStep = Pick<StepView, 'kind' | 'response'> & { readonly request?: JsonValue };

const MAX = 96;

/** Shortens `text` to one line of at most `max` characters. */
export function oneLine(text: string, max = MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * How runs read in one line each: the scenario's own `summarize` where it has
 * one, forkpoint's generic summary (the model's asks and words, compact JSON)
 * where it has none. The CLI knows no scenario's fields.
 */
export interface Summarizer {
  /**
   * What a step's response said; an approval step, what the person decided
   * about which tool (named from its request, when given), by whom and why.
   */
  step(step: SummarizedStep): string;
  /** How a run ended, when it reached an outcome. */
  outcome(outcome: JsonObject | null): string;
  /** The outcome in a word, for trees and tallies. */
  verdict(outcome: JsonObject | null): string;
}

/** The summarizer of `scenario`, or the generic one without a scenario. */
export function summarizerOf(scenario?: Scenario): Summarizer {
  const own = scenario?.summarize;
  return {
    step: (step) => {
      // An approval is forkpoint's own step, a person's answer: no scenario's words are about it.
      const answer = step.kind === APPROVAL_KIND ? approvalAnswerOf(step.response) : undefined;
      if (answer !== undefined) return oneLine(answerWords(answer, approvalQuestionOf(step.request)?.tool));
      const custom = own?.response?.(step.kind, step.response);
      if (custom !== undefined) return oneLine(custom);
      if (step.kind === 'model' && isJsonObject(step.response)) return oneLine(summarizeModelResponse(step.response));
      return oneLine(JSON.stringify(step.response));
    },
    outcome: (outcome) => {
      if (outcome === null) return 'no outcome';
      // What a structural replay ends with: its final turn is shaped, so only the trajectory was checked.
      if (outcome.judged === false) return 'the trajectory held (the final turn is a shape: the outcome is not judged)';
      return oneLine(own?.outcome?.(outcome) ?? JSON.stringify(outcome), 140);
    },
    verdict: (outcome) => (outcome === null ? 'completed' : (own?.verdict?.(outcome) ?? 'completed')),
  };
}

function summarizeModelResponse(response: JsonObject): string {
  const content: readonly JsonValue[] = Array.isArray(response.content) ? response.content : [];
  const parts = content.filter(isJsonObject);
  const asks = parts
    .filter((part) => part.type === 'tool_use')
    .map((part) => `${plain(part.name)} ${JSON.stringify(part.input)}`);
  if (asks.length > 0) return `asks ${asks.join('; ')}`;
  const text = parts
    .filter((part) => part.type === 'text')
    .map((part) => plain(part.text))
    .join(' ');
  return `writes ${text}`;
}

// A string as it is, anything else as JSON: a name or a text a provider sent as something else still reads.
function plain(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : value === undefined ? 'undefined' : JSON.stringify(value);
}
