import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { Option } from '@commander-js/extra-typings';
import { ForkpointError } from '../../errors/index.js';
import type { Scenario } from '../../scenario/index.js';
import { loadScenario } from '../../scenario/index.js';
import { BUILT_IN_SCENARIOS } from '../built-in-scenarios.js';

/** What a scenario command works with once parsed: its scenario, and the values of its input flags by flag name. */
export interface ScenarioInput {
  readonly scenario: Scenario;
  readonly flags: Readonly<Record<string, string | undefined>>;
}

/** What a batch command works with: its scenario, the input flag it batches (`claim`), and the list given (`--claims`). */
export interface ScenarioBatch {
  readonly scenario: Scenario;
  readonly flag: string;
  readonly value: string | undefined;
}

const flagsOf = new WeakMap<CommandUnknownOpts, ScenarioFlags>();

/**
 * The input flags of a command that takes a scenario directory first
 * (`record`, `record-batch`, `lint`): a scenario's flags (`--claim`) are its
 * own, so they are declared on the command before it parses, from the
 * scenario named right after the command (as a subcommand is named right
 * after `forkpoint`), or, when none is, from the built-in scenarios. The
 * command then parses once, and its help lists them.
 */
export class ScenarioFlags {
  private loaded: { readonly directory: string; readonly scenario: Scenario } | undefined;
  private readonly declared = new Set<string>();

  private constructor(private readonly batch: boolean) {}

  /** Gives `command` scenario input flags; `batch` adds the plural flag that lists several inputs (`--claims`). */
  static attach(command: CommandUnknownOpts, options: { readonly batch?: boolean } = {}): ScenarioFlags {
    const flags = new ScenarioFlags(options.batch === true);
    flagsOf.set(command, flags);
    return flags;
  }

  /** The scenario flags attached to `command`, if it takes any. */
  static of(command: CommandUnknownOpts): ScenarioFlags | undefined {
    return flagsOf.get(command);
  }

  /** Declares on `command` the flags of the scenario in `directory`, or of the built-in ones without a directory. */
  async declare(command: CommandUnknownOpts, directory: string | undefined): Promise<void> {
    if (directory !== undefined) {
      const scenario = await loadScenario(directory);
      this.loaded = { directory, scenario };
      this.declareFlags(command, scenario);
      return;
    }
    for (const builtIn of BUILT_IN_SCENARIOS) {
      // Only for help and for a directory named later on the line: a built-in that cannot load declares nothing.
      const scenario = await loadScenario(builtIn).catch(() => undefined);
      if (scenario !== undefined) this.declareFlags(command, scenario);
    }
  }

  /**
   * What to add to an unknown-option error when the flags came from the
   * built-in scenarios: the option may be the own flag of a scenario whose
   * directory was named later on the line.
   */
  unknownOptionHint(command: CommandUnknownOpts): string | undefined {
    if (this.loaded !== undefined) return undefined;
    return `; a scenario's input flags are known when its directory comes right after the command (\`forkpoint ${command.name()} DIR ...\`)`;
  }

  /** The scenario in `directory` (the command's argument) with the values its flags were given. */
  async read(command: CommandUnknownOpts, directory: string): Promise<ScenarioInput> {
    const scenario = await this.scenarioIn(directory);
    const names = Object.keys(scenario.inputFlags);
    this.requireDeclared(command, directory, names);
    return { scenario, flags: Object.fromEntries(names.map((name) => [name, valueOf(command, name)])) };
  }

  /** The scenario in `directory`, with the list its batch flag was given. */
  async readBatch(command: CommandUnknownOpts, directory: string): Promise<ScenarioBatch> {
    const scenario = await this.scenarioIn(directory);
    const [only, ...others] = Object.keys(scenario.inputFlags);
    if (only === undefined || others.length > 0)
      throw new ForkpointError(
        'USAGE',
        `scenario ${scenario.name} does not take a single input flag, so its inputs cannot be batched`,
      );
    this.requireDeclared(command, directory, [`${only}s`]);
    return { scenario, flag: only, value: valueOf(command, `${only}s`) };
  }

  private async scenarioIn(directory: string): Promise<Scenario> {
    return this.loaded?.directory === directory ? this.loaded.scenario : await loadScenario(directory);
  }

  // A scenario named later on the line than right after the command had its flags declared from the built-ins.
  private requireDeclared(command: CommandUnknownOpts, directory: string, flags: readonly string[]): void {
    const undeclared = flags.filter((flag) => !this.declared.has(flag));
    if (undeclared.length === 0) return;
    throw new ForkpointError(
      'USAGE',
      `name the scenario directory right after "${command.name()}" (\`forkpoint ${command.name()} ${directory} ...\`): its input flags (--${undeclared.join(', --')}) are declared from it`,
    );
  }

  private declareFlags(command: CommandUnknownOpts, scenario: Scenario): void {
    const names = Object.keys(scenario.inputFlags);
    // Help lists each scenario's flags under its name, apart from forkpoint's own options.
    const group = `Input flags of scenario ${scenario.name}:`;
    if (this.batch) {
      // A batch lists several values of one flag; a scenario with none or several cannot be batched.
      const [only, ...others] = names;
      if (only !== undefined && others.length === 0)
        this.add(command, `${only}s`, 'ALL|VALUE,...', `the ${only}s to record: ALL, or a comma-separated list`, group);
      return;
    }
    for (const [name, flag] of Object.entries(scenario.inputFlags))
      this.add(command, name, 'VALUE', flag.description, group);
  }

  private add(command: CommandUnknownOpts, name: string, value: string, description: string, group: string): void {
    if (this.declared.has(name)) return;
    if (command.options.some((option) => option.long === `--${name}`)) {
      throw new ForkpointError(
        'SCENARIO_LOAD_FAILED',
        `the scenario's input flag --${name} is also an option of forkpoint ${command.name()}; rename the flag`,
      );
    }
    command.addOption(new Option(`--${name} <${value}>`, description).helpGroup(group));
    this.declared.add(name);
  }
}

function valueOf(command: CommandUnknownOpts, flag: string): string | undefined {
  const value: unknown = command.getOptionValue(new Option(`--${flag} <VALUE>`).attributeName());
  return typeof value === 'string' ? value : undefined;
}
