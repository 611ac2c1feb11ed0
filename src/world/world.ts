import type { MessagePart, ModelRequest, ModelResponse } from '../conversation/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';

/**
 * A model provider in the provider-neutral shape. An adapter wraps a real SDK
 * client; scenarios may simulate one. A provider refuses a request by
 * throwing a `ForkpointError` with code `PROVIDER_REJECTED`.
 */
export interface ModelProvider {
  respond(request: ModelRequest): Promise<ModelResponse>;
  /**
   * The parts of `request`'s conversation this provider leaves out of what it
   * sends, because its API cannot take them: reasoning another provider wrote,
   * another provider's own blocks. A fork that moves a run to another model
   * asks it, and records what the prefix loses. Absent: it sends every part.
   */
  leavesOut?(request: ModelRequest): readonly MessagePart[];
}

/**
 * A tool backend. It returns the tool's output, or throws: the model then sees
 * `{ error: message }`, with `retryable: true` when the error has a
 * `retryable: true` property (a transient failure a build's `retryTool` may retry).
 */
export type ToolHandler = (input: JsonObject) => Promise<JsonValue> | JsonValue;

/**
 * What answers a live run's requests: a model provider and the tool backends.
 *
 * A world may say what it is, and every run that meets it stores what it says:
 * the day a simulated or snapshot world answers as of, the seed its simulated
 * model samples with. A world of a real provider and real tools says neither:
 * it is today's, and cannot be asked for again.
 */
export interface World {
  readonly model: ModelProvider;
  readonly tools: Readonly<Record<string, ToolHandler>>;
  /** The day the world answers as of, `YYYY-MM-DD`. */
  readonly worldAt?: string;
  /** The seed its simulated model samples with: an integer from 0 to 2^32-1. */
  readonly seed?: number;
  /**
   * Releases what the world holds: a local emulator it started, a connection
   * pool. The engine never calls it: whoever opened the world closes it (the
   * CLI does, once its command has ended).
   */
  readonly close?: () => Promise<void>;
}

/**
 * Opens a fresh world for each run of a workflow that makes several (a
 * verification's arms, a divergence report's re-executions). `run` counts the
 * workflow's runs from 0, in the order it makes them, so a simulated world can
 * derive a repeatable seed from it.
 */
export type WorldFactory = (run: number) => World;
