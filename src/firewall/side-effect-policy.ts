import type { ToolSpec } from '../agent/index.js';
import { ForkpointError } from '../errors/index.js';

/**
 * What the side-effect firewall does with a call to a tool that is not
 * read-only, in a run that goes past its recording against a world:
 * - `refuse` (the default): the run stops at that step with `SIDE_EFFECT_BLOCKED`;
 * - `simulate`: the tool's simulator answers, and the step's provenance is `simulated`;
 * - `live`: the real tool is called, and the step is marked as a live side effect.
 */
export type SideEffectChoice = 'refuse' | 'simulate' | 'live';

/** Every choice, in the order help lists them. */
export const SIDE_EFFECT_CHOICES: readonly SideEffectChoice[] = ['refuse', 'simulate', 'live'];

/** A run's firewall: a choice for every side-effecting tool, and one for the tools it does not name. A type, so that it is a `JsonValue`. */
export type SideEffectPolicy = {
  readonly default: SideEffectChoice;
  /** Choices for named tools, overriding the default. */
  readonly tools: Readonly<Record<string, SideEffectChoice>>;
};

/**
 * How a caller states a policy: one choice for every tool (`'simulate'`), or
 * choices by tool name with an optional default (`{ tools: { estimate_repair: 'live' } }`,
 * whose other tools are refused).
 */
export type SideEffectOption =
  | SideEffectChoice
  | { readonly default?: SideEffectChoice; readonly tools?: Readonly<Record<string, SideEffectChoice>> };

/** The policy every mode past a recording starts from: no side effect goes live. */
export const REFUSE_SIDE_EFFECTS: SideEffectPolicy = Object.freeze({ default: 'refuse', tools: Object.freeze({}) });

/**
 * Checks a caller's option against a build's tools and makes it a policy.
 * Checked at run time, because JavaScript and JSON callers have no compiler to
 * help: an unknown choice, or a tool the build does not declare as
 * side-effecting, is a `USAGE` error naming it, and nothing runs.
 */
export function resolveSideEffectPolicy(option: unknown, tools: readonly ToolSpec[]): SideEffectPolicy {
  if (option === undefined) return REFUSE_SIDE_EFFECTS;
  if (typeof option === 'string') return { default: checkChoice(option, 'sideEffects'), tools: {} };
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw usage(
      `sideEffects must be one of ${SIDE_EFFECT_CHOICES.join(', ')}, or { default?, tools? }; got ${describe(option)}`,
    );
  }
  const { default: fallback, tools: named, ...unknown } = option as Record<string, unknown>;
  const stray = Object.keys(unknown);
  if (stray.length > 0)
    throw usage(`sideEffects has no field ${stray.map((key) => `"${key}"`).join(', ')}; it takes default and tools`);
  const byName: Record<string, SideEffectChoice> = {};
  if (named !== undefined) {
    if (typeof named !== 'object' || named === null || Array.isArray(named))
      throw usage(`sideEffects.tools must be an object of tool names to choices, got ${describe(named)}`);
    for (const [name, choice] of Object.entries(named)) {
      const spec = tools.find((tool) => tool.name === name);
      if (spec === undefined) {
        throw usage(
          `sideEffects names tool "${name}", which the build does not declare; its side-effecting tools are ${sideEffectingNames(tools)}`,
        );
      }
      if (spec.readOnly)
        throw usage(`sideEffects names tool "${name}", which is read-only: the firewall never stops it`);
      Object.defineProperty(byName, name, {
        value: checkChoice(choice, `sideEffects.tools.${name}`),
        enumerable: true,
      });
    }
  }
  return { default: fallback === undefined ? 'refuse' : checkChoice(fallback, 'sideEffects.default'), tools: byName };
}

/** The choice a policy makes for one tool. */
export function choiceFor(policy: SideEffectPolicy, tool: string): SideEffectChoice {
  return (Object.hasOwn(policy.tools, tool) ? policy.tools[tool] : undefined) ?? policy.default;
}

/** A policy in a few words, as the CLI takes it: `refuse`, `simulate`, `refuse,estimate_repair=live`. */
export function formatSideEffectPolicy(policy: SideEffectPolicy): string {
  const named = Object.entries(policy.tools).map(([name, choice]) => `${name}=${choice}`);
  return [policy.default, ...named].join(',');
}

/**
 * Reads the CLI's `--side-effects` value: a choice for every tool (`simulate`),
 * choices by tool (`estimate_repair=live,refund=simulate`), or both
 * (`simulate,estimate_repair=live`).
 */
export function parseSideEffectOption(text: string): SideEffectOption {
  let fallback: SideEffectChoice | undefined;
  const tools: Record<string, SideEffectChoice> = {};
  for (const part of text.split(',').map((piece) => piece.trim())) {
    const [name, choice, extra] = part.split('=');
    if (extra !== undefined || name === undefined || name === '')
      throw usage(`--side-effects takes refuse|simulate|live, or TOOL=CHOICE pairs separated by commas; got "${text}"`);
    if (choice === undefined) {
      if (fallback !== undefined) throw usage(`--side-effects gives a choice for every tool twice in "${text}"`);
      fallback = checkChoice(name, '--side-effects');
    } else {
      if (Object.hasOwn(tools, name)) throw usage(`--side-effects names tool ${name} twice in "${text}"`);
      Object.defineProperty(tools, name, { value: checkChoice(choice, `--side-effects ${name}`), enumerable: true });
    }
  }
  return { ...(fallback === undefined ? {} : { default: fallback }), tools };
}

/** Whether a policy lets any side effect reach the real world. */
export function allowsLiveSideEffects(policy: SideEffectPolicy): boolean {
  return policy.default === 'live' || Object.values(policy.tools).includes('live');
}

function checkChoice(choice: unknown, what: string): SideEffectChoice {
  if (typeof choice === 'string' && (SIDE_EFFECT_CHOICES as readonly string[]).includes(choice))
    return choice as SideEffectChoice;
  throw usage(`${what} must be one of ${SIDE_EFFECT_CHOICES.join(', ')}, got ${describe(choice)}`);
}

function sideEffectingNames(tools: readonly ToolSpec[]): string {
  const names = tools.filter((tool) => !tool.readOnly).map((tool) => tool.name);
  return names.length === 0 ? 'none' : names.join(', ');
}

function describe(value: unknown): string {
  return typeof value === 'string'
    ? `"${value}"`
    : value === undefined
      ? 'nothing'
      : (jsonOf(value) ??
        (typeof value === 'function' || typeof value === 'symbol' ? value.toString() : 'a value that is not JSON'));
}

// JSON.stringify's type leaves out the undefined it gives for a function, a symbol or a `toJSON` that says nothing.
const jsonOf = (value: unknown): string | undefined => JSON.stringify(value);

function usage(message: string): ForkpointError {
  return new ForkpointError('USAGE', message);
}
