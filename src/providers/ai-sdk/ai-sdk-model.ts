/**
 * The call options of `doGenerate` as this adapter writes them: the prompt,
 * and the rest in the specification's own names. Typed loosely on purpose:
 * the specification's own option types (v2 and v3) are assignable to it, so
 * any language model fits {@link AiSdkLanguageModel} without the adapter
 * importing `@ai-sdk/provider`.
 */
export interface AiSdkCallOptions {
  readonly prompt: readonly unknown[];
}

/**
 * What {@link fromAiSdk} needs of an AI SDK language model, in the
 * LanguageModel specification v2 (`ai` 5) or v3 (`ai` 6): which version it
 * implements, who provides it, and `doGenerate`.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v2' | 'v3';
  /** The provider's id, e.g. `anthropic.messages`: the name of its errors and of its own parts. */
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: AiSdkCallOptions): PromiseLike<unknown>;
}

/** Options of {@link fromAiSdk}. */
export interface FromAiSdkOptions {
  /**
   * How many times a failed call the provider marks retryable (a 429, a 5xx,
   * a dropped connection) is tried again, as `generateText` does around
   * `doGenerate`: 2 unless set, as there.
   */
  readonly maxRetries?: number;
}

/** True for a v2 or v3 language model: its version, provider and model id, and `doGenerate`. */
export function isAiSdkModel(value: unknown): value is AiSdkLanguageModel {
  if (typeof value !== 'object' || value === null) return false;
  const model = value as { readonly [key: string]: unknown };
  return (
    (model.specificationVersion === 'v2' || model.specificationVersion === 'v3') &&
    typeof model.provider === 'string' &&
    typeof model.modelId === 'string' &&
    typeof model.doGenerate === 'function'
  );
}
