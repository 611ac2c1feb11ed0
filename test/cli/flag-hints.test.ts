import { describe, expect, it } from 'vitest';
import { cliMessage, flagHint } from '../../src/cli/flag-hints.js';
import { ForkpointError } from '../../src/errors/index.js';
import { EVERY_REMEDY } from '../support/every-remedy.js';
import { cli, tempFolder } from '../support/cli-harness.js';

describe('flag hints', () => {
  it.each([
    [{ kind: 'choose-run-id' }, '; choose another --run-id'],
    [{ kind: 'open-another-store', restore: true }, '; restore it from a copy, or point --db at another file'],
    [{ kind: 'replay-structural', runId: '9b40c1d5' }, ': `forkpoint replay 9b40c1d5 --tier structural`'],
    [{ kind: 'replay-structural' }, ': replay it with --tier structural'],
    [
      { kind: 'export-structural', runId: 'ab' },
      '; export its structural tier instead: `forkpoint export ab --tier structural`',
    ],
    [
      { kind: 'use-agent', agent: 'refund-desk' },
      '; use a build of refund-desk, or --scenario DIR of the scenario it came from',
    ],
  ] as const)('says %j in flags', (remedy, hint) => {
    expect(flagHint(remedy)).toBe(hint);
    const error = new ForkpointError('USAGE', 'it went wrong', { details: { remedy } });
    expect(cliMessage(error)).toBe(`it went wrong${hint}`);
  });

  it.each(EVERY_REMEDY)('has words for %j that differ from the library’s', (remedy) => {
    const error = new ForkpointError('USAGE', 'it went wrong', { details: { remedy } });
    expect(cliMessage(error)).toMatch(/^it went wrong[;:.] /);
    expect(cliMessage(error)).not.toBe(error.message);
  });

  it('leaves an error without a remedy as it is', () => {
    const error = new ForkpointError('RUN_NOT_FOUND', 'no run 9b40c1d5');
    expect(cliMessage(error)).toBe('no run 9b40c1d5');
  });

  it('turns the store’s remedy into --run-id on the command line', async () => {
    const folder = tempFolder('forkpoint-hints-');
    try {
      const db = `${folder.path}/forkpoint.db`;
      const args = ['record', 'scenarios/claims-triage', '--claim', 'CLM-91077', '--at', '2026-03-04'];
      await cli([...args, '--run-id', '9b40c1d5', '--db', db]);
      const again = await cli([...args, '--run-id', '9b40c1d5', '--db', db]);
      expect(again.exit).toBe(2);
      expect(again.stderr).toMatch(
        /^forkpoint: RUN_EXISTS: a run with id 9b40c1d5 already exists in .*; choose another --run-id\n$/,
      );
    } finally {
      folder.cleanup();
    }
  });
});
