import type { SimulatedCall, ToolSpec } from '../agent/index.js';
import type { ToolResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import { assertJsonValue, canonicalJson, isJsonObject } from '../json/index.js';
import { RecordedToolError } from './recorded-tool-error.js';
import type { SessionCore } from './session-core.js';

/** How a session wraps one tool. */
export interface WrapToolOptions {
  /**
   * True when calling the tool only reads the world. A session past its
   * recording (`fork:prefix` after its step, `replay:fidelity` going live)
   * calls a tool that is not read-only only when its `sideEffects` name it,
   * so a fork never refunds a customer twice. Default false.
   */
  readonly readOnly?: boolean;
  /** Answers in the tool's place when the session's `sideEffects` say `simulate` for it. */
  readonly simulate?: (call: SimulatedCall) => JsonValue;
}

/** A tool function as a loop calls it: one JSON object in, a JSON value (or nothing) out. */
export type ToolFunction<I extends JsonObject = JsonObject, O = unknown> = (input: I) => O | Promise<O>;

/** The tools a session has wrapped, by name: what its firewall knows of them. */
export class ToolRegistry {
  private readonly byName = new Map<string, { readonly fn: object; readonly spec: ToolSpec }>();
  private readonly names = new Map<object, string>();

  /** Registers a tool; the same function under two names, or two under one, is `SESSION_MISUSE`. */
  register(name: string, fn: object, options: WrapToolOptions): void {
    if (typeof name !== 'string' || name === '' || name === 'model')
      throw misuse(`a tool needs a name other than "model" (got ${JSON.stringify(name)})`);
    const named = this.names.get(fn);
    if (named !== undefined && named !== name)
      throw misuse(
        `this function is wrapped as ${named} already; one function is one tool, so wrap it once, or wrap a second function for ${name}`,
      );
    const held = this.byName.get(name);
    if (held !== undefined && held.fn !== fn)
      throw misuse(`a tool named ${name} is wrapped already, with another function; a name keys one tool's calls`);
    this.names.set(fn, name);
    this.byName.set(name, {
      fn,
      spec: {
        name,
        description: '',
        inputSchema: {},
        readOnly: options.readOnly === true,
        ...(options.simulate === undefined ? {} : { simulate: options.simulate }),
      },
    });
  }

  /** The wrapped tools, as the firewall reads specs. */
  specs(): ToolSpec[] {
    return [...this.byName.values()].map((entry) => entry.spec);
  }
}

/**
 * A tool function wrapped by a session: each call is a step of the run,
 * answered by the session's mode (the function itself in a recording, the
 * recording in a replay). An answer that is an error is thrown, as the
 * function threw it (the very error, when it just did; a
 * {@link RecordedToolError} with the stored output, in a replay).
 *
 * @param mayGoLive false in a strict replay: the function is never called, and not even reachable from the call
 */
export function wrapTool<I extends JsonObject, O>(
  core: SessionCore,
  name: string,
  fn: ToolFunction<I, O>,
  mayGoLive: boolean,
): (input: I) => Promise<O> {
  return async (input: I): Promise<O> => {
    if (!isJsonObject(input))
      throw misuse(
        `${name} was called with ${describe(input)}; a wrapped tool takes one JSON object, as a model's tool call gives`,
      );
    assertJsonValue(input, `the input of ${name}`, 'SESSION_MISUSE');
    let thrown: { readonly error: unknown } | undefined;
    const returned = { nothing: false };
    const live = mayGoLive
      ? async (): Promise<ToolResponse> => {
          try {
            // A copy: the input is the call's record, and a function that normalises it in place would change it.
            const value = await fn(structuredClone(input));
            const output = value === undefined ? null : value;
            assertJsonValue(output, `the output of ${name}`, 'AGENT_CODE_FAILED');
            returned.nothing = value === undefined;
            return { output, isError: false };
          } catch (error) {
            if (error instanceof ForkpointError && error.code === 'AGENT_CODE_FAILED') throw error;
            thrown = { error };
            return { output: { error: error instanceof Error ? error.message : String(error) }, isError: true };
          }
        }
      : undefined;
    const { response, provenance } = await core.tool({ tool: name, input, live });
    if (provenance === 'live' && thrown !== undefined) throw thrown.error;
    if (response.isError) throw new RecordedToolError(name, response.output);
    // Keys in the order the store keeps them, in every mode: a loop that writes the output as text (most do)
    // then writes the same text in a recording and in its replay. What the function returned as nothing
    // stays nothing while it runs live; a replay gives the null it was stored as.
    if (provenance === 'live' && returned.nothing) return undefined as O;
    return JSON.parse(canonicalJson(response.output)) as O;
  };
}

const misuse = (message: string): ForkpointError => new ForkpointError('SESSION_MISUSE', message);

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return value === null ? 'null' : `a ${typeof value}`;
}
