import { Option } from '@commander-js/extra-typings';
import { parseCapturePolicy } from '../../engine/index.js';
import { parseSideEffectOption } from '../../firewall/index.js';
import { dateOption, integerOption } from './value-parsers.js';

// Options several commands take, made once so that their help reads the same everywhere. Each call makes a new
// Option: commander keeps state on the options a command holds.

/** `--at DATE`: the world's date. */
export const atOption = (description = "the world's date, YYYY-MM-DD") => dateOption('--at <DATE>', description);

/** `--build NAME`: the agent build. */
export const buildOption = (description = 'the agent build (default: the recorded one, or the scenario’s default)') =>
  new Option('--build <NAME>', description);

/** `--seed N`: pins the model's sampling. */
export const seedOption = (description = "pin the model's sampling (default: random, and stored)") =>
  integerOption('--seed <N>', description, 0, 0xffffffff);

/** `--scenario DIR`: the scenario a stored run is worked on with. */
export const scenarioOption = (description = 'the scenario directory (default: the run’s own)') =>
  new Option('--scenario <DIR>', description);

/** `--latency MS`: simulated latency per call. */
export const latencyOption = () => integerOption('--latency <MS>', 'simulated latency per call (default 0)', 0, 60_000);

/** `--repeats K`: runs per arm or per recording. */
export const repeatsOption = (description: string) => integerOption('--repeats <K>', description, 1, 1000);

const SIDE_EFFECTS =
  'calls to tools that are not read-only: refuse (default: the run stops there), simulate (the tool’s simulator answers) or live (the real tool); for every tool, or per tool as TOOL=CHOICE pairs separated by commas';

/** `--side-effects POLICY`: the firewall's choice for tools that are not read-only (checked against the build's tools when the run starts). */
export const sideEffectsOption = (when = '') =>
  new Option('--side-effects <POLICY>', `${when}${SIDE_EFFECTS}`).argParser(parseSideEffectOption);

/** `--capture POLICY`: which runs keep their full tier. */
export const captureOption = (byDefault: string) =>
  new Option(
    '--capture <POLICY>',
    `which runs keep their full tier: all, or errors+sample:RATE (failures and a sampled share; the rest keep their shape only) (default ${byDefault})`,
  ).argParser(parseCapturePolicy);
