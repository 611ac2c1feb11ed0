import type { StoreSettings } from '../../store/index.js';
import { FULL_RETENTION_HOURS, STRUCTURAL_RETENTION_DAYS } from '../../tiers/index.js';
import type { Command } from '../command.js';
import { withStore } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { integerOption } from '../parse-options.js';
import { printCommandHelp } from './help.js';

/**
 * `forkpoint retention`: the store's retention periods, the team's policy,
 * shown or changed. A change applies to runs made from then on; runs made
 * before keep the expiries they were stamped with.
 */
export const retentionCommand: Command = {
  name: 'retention',
  summary: "show or set the store's retention periods (full tier in hours, structural tier in days)",
  usage: '[--full-hours N] [--structural-days N] [--json]',
  options: {
    'full-hours': {
      type: 'string',
      value: 'N',
      description: 'keep the full tier of runs made from now on N hours (default 72)',
    },
    'structural-days': {
      type: 'string',
      value: 'N',
      description: 'keep the structural tier of runs made from now on N days (default 90)',
    },
  },
  async run(args, cli) {
    const parsed = cli.parse(args, this.options);
    if (parsed.values.help === true) return printCommandHelp(this, cli);
    const fullRetentionHours = integerOption(parsed, 'full-hours', 1, 100 * 366 * 24);
    const structuralRetentionDays = integerOption(parsed, 'structural-days', 1, 100 * 366);
    const changes = fullRetentionHours !== undefined || structuralRetentionDays !== undefined;
    // Only a change writes: showing the periods never creates or changes the database.
    const store = changes ? cli.openStore(parsed) : cli.openExistingStore(parsed, 'read');
    if (store === undefined) {
      const defaults = {
        mode: 'retention',
        storeId: null,
        fullRetentionHours: FULL_RETENTION_HOURS,
        structuralRetentionDays: STRUCTURAL_RETENTION_DAYS,
      };
      if (parsed.values.json === true) cli.json(defaults);
      else
        cli.print(
          `retention · no database at ${cli.dbPath(parsed)} yet: a new one keeps the full tier ${FULL_RETENTION_HOURS} hours and the structural tier ${STRUCTURAL_RETENTION_DAYS} days`,
        );
      return EXIT.ok;
    }
    return withStore(store, async (store) => {
      const engine = cli.engine(parsed, store);
      const settings = changes
        ? await engine.updateSettings({
            ...(fullRetentionHours === undefined ? {} : { fullRetentionHours }),
            ...(structuralRetentionDays === undefined ? {} : { structuralRetentionDays }),
          })
        : await engine.settings();
      if (parsed.values.json === true) cli.json({ mode: 'retention', ...settings });
      else cli.print(formatRetentionPolicy(settings, store.location, changes));
      return EXIT.ok;
    });
  },
};

function formatRetentionPolicy(settings: StoreSettings, location: string, changed: boolean): string {
  return [
    `${changed ? 'retention set' : 'retention'} · store ${settings.storeId} (${location})`,
    `  full tier: ${settings.fullRetentionHours} hours, then removed by gc, and its export key with the day`,
    `  structural tier: ${settings.structuralRetentionDays} days`,
    ...(changed ? ['  runs made from now on get these periods; runs made before keep their expiries'] : []),
  ].join('\n');
}
