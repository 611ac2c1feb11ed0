import { Command } from '@commander-js/extra-typings';
import type { StoreSettings } from '../../store/index.js';
import { FULL_RETENTION_HOURS, STRUCTURAL_RETENTION_DAYS } from '../../tiers/index.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { withCommonOptions } from '../options/common-options.js';
import { integerOption } from '../options/value-parsers.js';

/**
 * `forkpoint retention`: the store's retention periods, the team's policy,
 * shown or changed. A change applies to runs made from then on; runs made
 * before keep the expiries they were stamped with.
 */
export function retentionCommand(cli: CommandContext) {
  return withCommonOptions(
    new Command('retention')
      .description("show or set the store's retention periods (full tier in hours, structural tier in days)")
      .usage('[--full-hours N] [--structural-days N] [--json]')
      .addOption(
        integerOption(
          '--full-hours <N>',
          'keep the full tier of runs made from now on N hours (default 72)',
          1,
          100 * 366 * 24,
        ),
      )
      .addOption(
        integerOption(
          '--structural-days <N>',
          'keep the structural tier of runs made from now on N days (default 90)',
          1,
          100 * 366,
        ),
      ),
  ).action(async (options) => {
    const { fullHours: fullRetentionHours, structuralDays: structuralRetentionDays } = options;
    const changes = fullRetentionHours !== undefined || structuralRetentionDays !== undefined;
    cli.exit(EXIT.ok);
    // Only a change writes: showing the periods never creates or changes the database.
    const store = changes ? await cli.openStore(options) : await cli.openExistingStore(options, 'read');
    if (store === undefined) {
      const defaults = {
        mode: 'retention',
        storeId: null,
        fullRetentionHours: FULL_RETENTION_HOURS,
        structuralRetentionDays: STRUCTURAL_RETENTION_DAYS,
      };
      if (options.json === true) cli.json(defaults);
      else
        cli.print(
          `retention · no ${cli.missingStore(cli.dbPath(options))} yet: a new one keeps the full tier ${FULL_RETENTION_HOURS} hours and the structural tier ${STRUCTURAL_RETENTION_DAYS} days`,
        );
      return;
    }
    await withStore(store, async (open) => {
      const engine = cli.engine(options, open);
      const settings = changes
        ? await engine.updateSettings({
            ...(fullRetentionHours === undefined ? {} : { fullRetentionHours }),
            ...(structuralRetentionDays === undefined ? {} : { structuralRetentionDays }),
          })
        : await engine.settings();
      if (options.json === true) cli.json({ mode: 'retention', ...settings });
      else cli.print(formatRetentionPolicy(settings, open.location, changes));
    });
  });
}

function formatRetentionPolicy(settings: StoreSettings, location: string, changed: boolean): string {
  return [
    `${changed ? 'retention set' : 'retention'} · store ${settings.storeId} (${location})`,
    `  full tier: ${settings.fullRetentionHours} hours, then removed by gc, and its export key with the day`,
    `  structural tier: ${settings.structuralRetentionDays} days`,
    ...(changed ? ['  runs made from now on get these periods; runs made before keep their expiries'] : []),
  ].join('\n');
}
