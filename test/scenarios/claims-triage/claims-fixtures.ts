import scenario, { baseline, openClaimsWorld } from '../../../scenarios/claims-triage/index.js';
import type { AgentBuild } from '../../../src/agent/index.js';
import type { Engine } from '../../../src/engine/index.js';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import type { RecordResult } from '../../../src/modes/index.js';
import type { StepView } from '../../../src/read/index.js';
import type { ToolHandler, World } from '../../../src/world/index.js';
import { createEngine } from '../../../src/engine/index.js';
import { isJsonObject } from '../../../src/json/index.js';
import { sqliteStore } from '../../../src/store/index.js';
import { fieldText } from '../../support/field-text.js';

/** The day of the incident (OCR v1) and the day the chapter re-executes on (OCR v2). */
export const INCIDENT_DAY = '2026-03-04';
export const LATER_DAY = '2026-03-09';

/** A fresh engine over an in-memory store. */
export function memoryEngine(clock?: () => Date): Engine {
  const store = sqliteStore({ path: ':memory:' });
  return createEngine(clock === undefined ? { store } : { store, clock });
}

/** Calls one tool of the claims world as it answers on day `at`. */
export async function callTool(at: string, tool: string, input: JsonObject): Promise<JsonValue> {
  const handler: ToolHandler | undefined = openClaimsWorld({ at, seed: 1, latencyMs: 0 }).tools[tool];
  if (handler === undefined) throw new Error(`the claims world has no tool ${tool}`);
  return handler(input);
}

/** Reads a nested value out of JSON; `undefined` when the path does not exist. */
export function pick(value: JsonValue | undefined, ...path: readonly string[]): JsonValue | undefined {
  let current = value;
  for (const key of path) {
    if (!isJsonObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** A number read out of JSON, or a failure naming the path. */
export function numberAt(value: JsonValue | undefined, ...path: readonly string[]): number {
  const found = pick(value, ...path);
  if (typeof found !== 'number')
    throw new Error(`expected a number at ${path.join('.')}, got ${JSON.stringify(found)}`);
  return found;
}

/** Options of {@link recordClaim}. */
export interface RecordClaimOptions {
  readonly claimId: string;
  readonly at: string;
  readonly agent?: AgentBuild;
  readonly seed?: number;
  readonly engine?: Engine;
  /** Wraps the world, e.g. to count model calls. */
  readonly wrapWorld?: (world: World) => World;
}

/** Records one claims-triage run through the engine, as the CLI's `record` does. */
export function recordClaim(options: RecordClaimOptions): Promise<RecordResult> {
  const engine = options.engine ?? memoryEngine();
  const wrap = options.wrapWorld ?? ((world: World) => world);
  return engine.record({
    agent: options.agent ?? baseline,
    world: wrap(scenario.openWorld({ at: options.at, seed: options.seed ?? 1, latencyMs: 0 })),
    input: { claimId: options.claimId },
  });
}

/** The output of a tool step, failing when the step is missing, a model step, or an error result. */
export function toolOutputOf(step: StepView | undefined): JsonObject {
  if (step === undefined) throw new Error('no such step');
  if (step.kind === 'model') throw new Error(`step ${step.step} is a model step`);
  if (pick(step.response, 'isError') !== false)
    throw new Error(`step ${step.step} is not a successful tool result: ${JSON.stringify(step.response)}`);
  const output = pick(step.response, 'output');
  if (!isJsonObject(output)) throw new Error(`step ${step.step} has no object output`);
  return output;
}

/** The content parts of a model step's response. */
export function modelPartsOf(step: StepView | undefined): JsonObject[] {
  if (step === undefined) throw new Error('no such step');
  if (step.kind !== 'model') throw new Error(`step ${step.step} is a ${step.kind} step`);
  const content = pick(step.response, 'content');
  if (!Array.isArray(content)) throw new Error(`step ${step.step} has no content`);
  return content.filter(isJsonObject);
}

/** The names of the tools a model step asks for, in the order it lists them. */
export function toolNamesAskedBy(step: StepView | undefined): string[] {
  return modelPartsOf(step)
    .filter((part) => part.type === 'tool_use')
    .map((part) => fieldText(part.name));
}

/** The kinds of a run's steps, in order. */
export const kindsOf = (run: RecordResult): string[] => run.steps.map((step) => step.kind);
