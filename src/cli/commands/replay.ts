import { cassetteTierOf, readCassetteText } from '../../cassette/index.js';
import { assertRunId } from '../../engine/index.js';
import type { ReplayOptions } from '../../engine/index.js';
import { ForkpointError } from '../../errors/index.js';
import { buildOf } from '../../scenario/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { formatRun } from '../output/format-run.js';
import { stringOption } from '../parse-options.js';
import { SHARED_OPTIONS, sideEffectsOption } from '../shared-options.js';
import { printCommandHelp } from './help.js';
import { scenarioFor } from './scenario-of-run.js';

/**
 * `forkpoint replay`: re-executes a build from step 0 over a run's recorded
 * observations. Strict (the default) stops at the first request the cassette
 * cannot answer and prints the divergence (status `diverged`, exit 1);
 * fidelity reports every divergence; `--tier structural` replays the run's
 * shape, matching requests by their shape.
 */
export const replayCommand: Command = {
  name: 'replay',
  summary: 'replay a run: the current build over its recorded observations (strict by default)',
  usage:
    '<run-id> | --cassette FILE --scenario DIR   [--build NAME] [--strict | --fidelity [--on-miss live [--side-effects POLICY]] | --tier structural] [--json]',
  options: {
    build: { type: 'string', value: 'NAME', description: 'the build to replay (default: the recorded one)' },
    strict: { type: 'boolean', description: 'every answer from the cassette; a miss is an error (default)' },
    fidelity: {
      type: 'boolean',
      description: 'a miss is a finding: report where and why the run leaves the recording',
    },
    'on-miss': {
      type: 'string',
      value: 'live',
      description: 'with --fidelity: ask the live world from the first miss on',
    },
    'side-effects': {
      ...SHARED_OPTIONS['side-effects'],
      description: `with --on-miss live: ${SHARED_OPTIONS['side-effects'].description}`,
    },
    tier: {
      type: 'string',
      value: 'full|structural',
      description: "the tier to replay: full (default) or structural, the run's shape (strict, never live)",
    },
    cassette: {
      type: 'string',
      value: 'FILE',
      description: 'replay a cassette file instead of a stored run (its tier is read from the file)',
    },
    scenario: SHARED_OPTIONS.scenario,
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const [runId, extra] = parsed.positionals;
    if (extra !== undefined) throw new ForkpointError('USAGE', `unexpected argument "${extra}"; see --help`);
    const file = stringOption(parsed, 'cassette');
    if ((runId === undefined) === (file === undefined)) {
      throw new ForkpointError('USAGE', 'replay takes a run id, or --cassette FILE with --scenario DIR (not both)');
    }
    if (parsed.values.strict === true && parsed.values.fidelity === true)
      throw new ForkpointError('USAGE', 'choose --strict or --fidelity, not both');
    const fidelity = parsed.values.fidelity === true;
    const onMiss = stringOption(parsed, 'on-miss');
    if (onMiss !== undefined && (!fidelity || (onMiss !== 'live' && onMiss !== 'stop'))) {
      throw new ForkpointError(
        'USAGE',
        '--on-miss takes "live" (or "stop"), and only with --fidelity: strict replay never goes live',
      );
    }
    const sideEffects = sideEffectsOption(parsed);
    if (sideEffects !== undefined && onMiss !== 'live') {
      throw new ForkpointError(
        'USAGE',
        '--side-effects only applies with --fidelity --on-miss live: every other replay answers from the recording and never calls a tool',
      );
    }
    if (runId !== undefined) assertRunId(runId);
    if (file !== undefined && stringOption(parsed, 'scenario') === undefined) {
      throw new ForkpointError('USAGE', 'replay --cassette FILE needs --scenario DIR, the scenario whose build to run');
    }
    const fileText = file === undefined ? undefined : readCassetteText(file);
    // The file is checked fully through the store (a sealed one needs its key); its tier decides the replay now.
    const fileTier = fileText === undefined ? undefined : cassetteTierOf(fileText);
    const tier = stringOption(parsed, 'tier') ?? (fileTier === 'structural' ? 'structural' : 'full');
    if (tier !== 'full' && tier !== 'structural')
      throw new ForkpointError('USAGE', `--tier must be full or structural, got "${tier}"`);
    if (tier === 'structural' && fidelity)
      throw new ForkpointError('USAGE', 'a structural replay is strict: it cannot take --fidelity');

    return withStore(cli.openStore(parsed), async (store) => {
      const engine = cli.engine(parsed, store);
      const cassette =
        fileText !== undefined ? await engine.readCassette(fileText, file!) : await engine.cassette(runId!, tier);
      const { scenario, directory } = await scenarioFor(
        stringOption(parsed, 'scenario'),
        cassette.source.scenario,
        cassette.source.runId,
      );
      const agent = buildOf(scenario, stringOption(parsed, 'build') ?? cassette.agent.build);
      const base = { agent, cassette, scenario: directory, ...(file === undefined ? {} : { cassetteFile: file }) };
      const at = cassette.source.at ?? '1970-01-01';
      const options: ReplayOptions =
        tier === 'structural'
          ? { ...base, mode: 'structural' }
          : !fidelity
            ? { ...base, mode: 'strict' }
            : onMiss === 'live'
              ? {
                  ...base,
                  mode: 'fidelity',
                  onMiss: 'live',
                  world: (seed) => scenario.openWorld({ at, seed, latencyMs: 0 }),
                  ...(sideEffects === undefined ? {} : { sideEffects }),
                }
              : { ...base, mode: 'fidelity' };
      const result = await engine.replay(options);
      if (parsed.values.json === true) cli.json(result);
      else cli.print(formatRun(result, cli.style, scenario));
      if (result.mode === 'replay:fidelity') return result.status === 'failed' ? EXIT.negative : EXIT.ok;
      return result.status === 'completed' ? EXIT.ok : EXIT.negative;
    });
  },
};
