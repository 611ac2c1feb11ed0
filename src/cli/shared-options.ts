import type { OptionSpec } from './parse-options.js';

/** Options several commands take, described once so that their help reads the same everywhere. */
export const SHARED_OPTIONS = {
  at: { type: 'string', value: 'DATE', description: "the world's date, YYYY-MM-DD" },
  build: { type: 'string', value: 'NAME', description: 'the agent build (default: the recorded one, or the scenario’s default)' },
  seed: { type: 'string', value: 'N', description: "pin the model's sampling (default: random, and stored)" },
  scenario: { type: 'string', value: 'DIR', description: 'the scenario directory (default: the run’s own)' },
  latency: { type: 'string', value: 'MS', description: 'simulated latency per call (default 0)' },
  capture: {
    type: 'string',
    value: 'POLICY',
    description: 'which runs keep their full tier: all, or errors+sample:RATE (failures and a sampled share; the rest keep their shape only)',
  },
} as const satisfies Readonly<Record<string, OptionSpec>>;
