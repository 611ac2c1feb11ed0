import type { JsonValue } from '../json/index.js';
import { isJsonArray, isJsonObject } from '../json/index.js';
import type { Provenance } from '../vocabulary/index.js';
import { PROVENANCES } from '../vocabulary/index.js';

/**
 * Tokens, by the kinds a model call's usage counts (see `Usage`): input billed
 * at the input rate, output (reasoning included), input read from and written
 * to the prompt cache, and the part of the output that was reasoning. A count
 * the provider did not report adds nothing.
 */
export type TokenCounts = {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly reasoning: number;
};

/** No tokens. */
export const NO_TOKENS: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };

/**
 * A run's model steps of one model and one provenance, their tokens summed:
 * what a store keeps of a run's usage once it ends, so that a listing prices
 * runs without reading their steps (and after their steps expired).
 */
export type UsageTotal = TokenCounts & {
  /** The model that answered (the response's `model`, else the request's). */
  readonly model: string;
  /** Where the steps' responses came from: `live` ones were paid for, `recorded` ones were not. */
  readonly provenance: Provenance;
  /** How many model steps. */
  readonly steps: number;
};

/** What one model step used: the model that answered and its tokens. */
export interface StepUsage {
  readonly model: string;
  readonly tokens: TokenCounts;
}

const count = (value: JsonValue | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

/**
 * The usage of a model step from its stored response: the model is the
 * response's own `model` (the one that answered, and billed), and the
 * request's where a response does not say; the tokens as {@link TokenCounts}.
 */
export function usageOfResponse(response: JsonValue, requestedModel: string): StepUsage {
  const body = isJsonObject(response) ? response : {};
  const usage = isJsonObject(body.usage) ? body.usage : {};
  return {
    model: typeof body.model === 'string' && body.model !== '' ? body.model : requestedModel,
    tokens: {
      input: count(usage.inputTokens),
      output: count(usage.outputTokens),
      cacheRead: count(usage.cacheReadTokens),
      cacheWrite: count(usage.cacheWriteTokens),
      reasoning: count(usage.reasoningTokens),
    },
  };
}

/** The sum of two token counts. */
export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    reasoning: a.reasoning + b.reasoning,
  };
}

/**
 * Sums model steps into {@link UsageTotal}s by model and provenance, as they
 * come: the run writer tallies its steps as it commits them (a few additions
 * per model step), and a read tallies the steps it decoded.
 */
export class UsageTally {
  private readonly byKey = new Map<string, UsageTotal>();

  /** @param start totals to add on to: a resumed run's earlier attempts' */
  constructor(start: readonly UsageTotal[] = []) {
    for (const total of start) this.add(total.provenance, { model: total.model, tokens: total }, total.steps);
  }

  /** Adds `steps` model steps (one by default) of `provenance` that used `usage`. */
  add(provenance: Provenance, usage: StepUsage, steps = 1): void {
    const key = `${provenance} ${usage.model}`;
    const before = this.byKey.get(key);
    const tokens = before === undefined ? usage.tokens : addTokens(before, usage.tokens);
    this.byKey.set(key, {
      model: usage.model,
      provenance,
      steps: (before?.steps ?? 0) + steps,
      input: tokens.input,
      output: tokens.output,
      cacheRead: tokens.cacheRead,
      cacheWrite: tokens.cacheWrite,
      reasoning: tokens.reasoning,
    });
  }

  /** The totals so far, in the order their model and provenance first came. */
  get totals(): UsageTotal[] {
    return [...this.byKey.values()];
  }
}

const KINDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'reasoning', 'steps'] as const;
const PROVENANCE_NAMES: ReadonlySet<string> = new Set<string>(PROVENANCES);

/** Whether a stored value is a list of {@link UsageTotal}s, as a store checks what it reads back. */
export function isUsageTotals(value: JsonValue): value is UsageTotal[] {
  return (
    isJsonArray(value) &&
    value.every(
      (total) =>
        isJsonObject(total) &&
        typeof total.model === 'string' &&
        typeof total.provenance === 'string' &&
        PROVENANCE_NAMES.has(total.provenance) &&
        KINDS.every((kind) => {
          const tokens = total[kind];
          return typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0;
        }),
    )
  );
}
