import type { StepView } from '../../engine/index.js';
import type { JsonObject, JsonValue } from '../../json/index.js';
import { isJsonObject } from '../../json/index.js';
import type { Scenario } from '../../scenario/index.js';

const MAX = 96;

/** Shortens `text` to one line of at most `max` characters. */
export function oneLine(text: string, max = MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A one-line summary of what a step's response said. */
export function summarizeStep(step: Pick<StepView, 'kind' | 'response'>, scenario?: Scenario): string {
  const custom = scenario?.summarizeResponse?.(step.kind, step.response);
  if (custom !== undefined) return oneLine(custom);
  if (step.kind === 'model' && isJsonObject(step.response)) return oneLine(summarizeModelResponse(step.response));
  return oneLine(JSON.stringify(step.response));
}

function summarizeModelResponse(response: JsonObject): string {
  const content = Array.isArray(response.content) ? (response.content as readonly JsonValue[]) : [];
  const asks = content
    .filter(isJsonObject)
    .filter((part) => part.type === 'tool_use')
    .map((part) => `${String(part.name)} ${JSON.stringify(part.input)}`);
  if (asks.length > 0) return `asks ${asks.join('; ')}`;
  const text = content
    .filter(isJsonObject)
    .filter((part) => part.type === 'text')
    .map((part) => String(part.text))
    .join(' ');
  return `writes ${text}`;
}
