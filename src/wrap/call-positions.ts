import type { ModelResponse, ToolUsePart } from '../conversation/index.js';
import { toolUsesOf } from '../conversation/index.js';
import type { JsonValue } from '../json/index.js';
import { canonicalJson } from '../json/index.js';

/** Where one call of a wrapped loop stands: its step, and its kind's call number. */
export interface Position {
  readonly step: number;
  readonly index: number;
}

/** A tool call's position, and the tool call of the last model answer it makes, if the answer asked for it. */
export interface ToolPosition extends Position {
  readonly answers: ToolUsePart | undefined;
}

interface ListedCall {
  readonly part: ToolUsePart;
  readonly index: number;
  readonly input: string;
  claimed: boolean;
}

/**
 * Numbers the calls of a wrapped loop as a driven run numbers its own: steps
 * in the order calls begin, `model#k` for the k-th model call, and a tool
 * call's index by where the model answer lists it, never by when it ran, so
 * that a loop that runs its tools at once (the AI SDK's `Promise.all`) keys
 * them the same way every time. A tool call the last answer did not ask for
 * takes the next index of its kind.
 */
export class CallPositions {
  private lastStep = 0;
  private models = 0;
  private readonly tools = new Map<string, number>();
  private listed: ListedCall[] = [];

  /** The last step taken so far (0 before any). */
  get lastTaken(): number {
    return this.lastStep;
  }

  /** The position the next model call takes (see {@link takeModel}), without taking it. */
  peekModel(): Position {
    return { step: this.lastStep + 1, index: this.models };
  }

  /** Takes the next model call's position. The tool calls the last answer listed and the loop did not make lapse. */
  takeModel(): Position {
    const position = this.peekModel();
    this.lastStep = position.step;
    this.models += 1;
    this.listed = [];
    return position;
  }

  /**
   * Gives a model call's position back, when its attempt got no answer (the
   * provider failed it and the SDK will try again): the retry is the same
   * call. Only the last position taken can be given back.
   */
  releaseModel(position: Position): boolean {
    if (position.step !== this.lastStep || position.index !== this.models - 1) return false;
    this.lastStep -= 1;
    this.models -= 1;
    return true;
  }

  /** Reserves the indexes of the tool calls a model answer lists, in listed order. */
  listAnswer(response: ModelResponse): void {
    this.listed = toolUsesOf({ role: 'assistant', content: response.content }).map((part) => ({
      part,
      index: this.nextToolIndex(part.name),
      input: canonicalJson(part.input),
      claimed: false,
    }));
  }

  /** Takes a tool call's position: the listed call of that name and input, else the first of that name, else a new one. */
  takeTool(name: string, input: JsonValue): ToolPosition {
    const text = canonicalJson(input);
    const open = this.listed.filter((call) => !call.claimed && call.part.name === name);
    const listed = open.find((call) => call.input === text) ?? open[0];
    this.lastStep += 1;
    if (listed === undefined) return { step: this.lastStep, index: this.nextToolIndex(name), answers: undefined };
    listed.claimed = true;
    return { step: this.lastStep, index: listed.index, answers: listed.part };
  }

  private nextToolIndex(name: string): number {
    const index = this.tools.get(name) ?? 0;
    this.tools.set(name, index + 1);
    return index;
  }
}
