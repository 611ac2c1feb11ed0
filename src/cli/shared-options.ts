import type { SideEffectOption } from '../firewall/index.js';
import { parseSideEffectOption } from '../firewall/index.js';
import type { Scenario } from '../scenario/index.js';
import type { OptionSpec, ParsedOptions } from './parse-options.js';
import { stringOption } from './parse-options.js';

/** Options several commands take, described once so that their help reads the same everywhere. */
export const SHARED_OPTIONS = {
  at: { type: 'string', value: 'DATE', description: "the world's date, YYYY-MM-DD" },
  build: {
    type: 'string',
    value: 'NAME',
    description: 'the agent build (default: the recorded one, or the scenario’s default)',
  },
  seed: { type: 'string', value: 'N', description: "pin the model's sampling (default: random, and stored)" },
  scenario: { type: 'string', value: 'DIR', description: 'the scenario directory (default: the run’s own)' },
  latency: { type: 'string', value: 'MS', description: 'simulated latency per call (default 0)' },
  'side-effects': {
    type: 'string',
    value: 'POLICY',
    description:
      'calls to tools that are not read-only: refuse (default: the run stops there), simulate (the tool’s simulator answers) or live (the real tool); for every tool, or TOOL=CHOICE pairs, e.g. estimate_repair=simulate',
  },
  capture: {
    type: 'string',
    value: 'POLICY',
    description:
      'which runs keep their full tier: all, or errors+sample:RATE (failures and a sampled share; the rest keep their shape only)',
  },
} as const satisfies Readonly<Record<string, OptionSpec>>;

/** The `--side-effects` value, read (checked against the build's tools when the run starts). */
export function sideEffectsOption(parsed: ParsedOptions): SideEffectOption | undefined {
  const text = stringOption(parsed, 'side-effects');
  return text === undefined ? undefined : parseSideEffectOption(text);
}

/** The options a scenario's input flags (`--claim`) add to a command. */
export function inputFlagOptions(scenario: Scenario): Readonly<Record<string, OptionSpec>> {
  return Object.fromEntries(
    Object.entries(scenario.inputFlags).map(([name, flag]) => [
      name,
      { type: 'string', value: 'VALUE', description: flag.description },
    ]),
  );
}

/** The values given for a scenario's input flags, by flag name (undefined when not given). */
export function inputFlagValues(scenario: Scenario, parsed: ParsedOptions): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(scenario.inputFlags).map((name) => [name, stringOption(parsed, name)]));
}
