import type { ModelResponse } from '../conversation/index.js';
import type { JsonValue } from '../json/index.js';
import type { ModelProvider } from '../world/index.js';

/**
 * One answer an emulated provider gives, in neutral terms: the emulator writes
 * it in its provider's own wire format, as that provider's HTTP API would.
 */
export type EmulatedAnswer =
  | { readonly kind: 'response'; readonly response: ModelResponse }
  /** An HTTP error with the provider's error body, e.g. 400, 429 (with a short retry-after), 500. */
  | { readonly kind: 'error'; readonly status: number; readonly message: string }
  /** The connection is closed with no answer: a network drop. */
  | { readonly kind: 'drop' };

/**
 * A provider's HTTP API served on 127.0.0.1, answering what it is scripted to,
 * in order, and counting what it is asked. It never reaches the network.
 */
export interface ProviderEmulator {
  /** The base URL a client of the SDK is pointed at. */
  readonly url: string;
  /** Replaces the answers still to give with these. An unscripted request gets a 500 naming the surprise. */
  script(answers: readonly EmulatedAnswer[]): void;
  /** The bodies of every HTTP request received so far, parsed, oldest first. */
  received(): readonly JsonValue[];
  close(): Promise<void>;
}

/** What a provider adapter under the conformance suite brings: its emulator and its adapter over the real SDK. */
export interface ProviderSubject {
  /** Starts an emulator on 127.0.0.1 (port 0). */
  start(): Promise<ProviderEmulator>;
  /**
   * The adapter over a client of the real SDK pointed at `url`. `maxRetries`
   * is the SDK's own retry count: 0 unless a case tests the SDK's retry.
   */
  provider(url: string, options: { readonly maxRetries: number }): ModelProvider;
  /** The model id the cases' agent asks for. */
  readonly model: string;
  /** What the provider's wire format can carry; a case it cannot is skipped, saying so. */
  readonly supports: {
    /** Reasoning blocks with a signature, sent back verbatim. */
    readonly thinking: boolean;
    /** A refusal the provider reports as such. */
    readonly refusal: boolean;
  };
}
