import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/index.js';
import { cli, tempFolder } from '../support/cli-harness.js';
import { cliJson, demoAnswers, demoForkAnswer, demoReplayAnswer } from '../support/demo-answers.js';
import {
  adminPool,
  describePostgres,
  dropFreshSchemasAfterAll,
  freshSchemaName,
  postgresTestUrl,
  schemaUrl,
} from '../support/postgres.js';

dropFreshSchemasAfterAll();

const json = cliJson;

async function schemaExists(schema: string): Promise<boolean> {
  const pool = adminPool();
  try {
    const result = await pool.query<{ found: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1) AS found',
      [schema],
    );
    return result.rows[0]?.found === true;
  } finally {
    await pool.end();
  }
}

describePostgres('the CLI on a PostgreSQL server', () => {
  let folder: ReturnType<typeof tempFolder>;
  let demo: string;
  let forkId: string;
  beforeAll(async () => {
    folder = tempFolder('forkpoint-postgres-cli-');
    demo = join(folder.path, 'demo.db');
    expect((await cli(['demo', '--db', demo])).exit).toBe(0);
    const { runs } = (await json(['runs', '--limit', '1000', '--db', demo])) as {
      runs: Array<{ runId: string; mode: string; parent: { runId: string } | null }>;
    };
    forkId = runs.find((run) => run.mode === 'fork' && run.parent?.runId === '9b40c1d5')?.runId ?? '';
  }, 120_000);
  afterAll(() => {
    folder.cleanup();
  });

  const answers = (db: string) => demoAnswers(db, forkId);

  it("copies the demo's database to PostgreSQL and back, every command answering the same on each", async () => {
    const server = schemaUrl(freshSchemaName());
    const there = (await json(['copy', '--from', demo, '--to', server])) as { copied: number; skipped: number };
    const expected = await answers(demo);
    expect(await answers(server)).toEqual(expected);
    const back = join(folder.path, 'back.db');
    expect(await json(['copy', '--from', server, '--to', back])).toMatchObject({ copied: there.copied, skipped: 0 });
    expect(await answers(back)).toEqual(expected);
    // Again, either way: nothing to write.
    expect(await json(['copy', '--from', demo, '--to', server])).toMatchObject({ copied: 0, skipped: there.copied });
    expect(await json(['copy', '--from', server, '--to', back])).toMatchObject({ copied: 0, skipped: there.copied });

    // A strict replay and a fork on the server, as on the file.
    expect(await demoReplayAnswer(server)).toBe(await demoReplayAnswer(back));
    const forked = await demoForkAnswer(server);
    expect(forked).toMatchObject({ mode: 'fork', status: 'completed' });
    expect(forked).toEqual(await demoForkAnswer(back));
  }, 120_000);

  it('records, lists and shows a run with FORKPOINT_DB naming the server', async () => {
    const env = { NO_COLOR: '1', FORKPOINT_DB: schemaUrl(freshSchemaName()) };
    const record = ['record', 'scenarios/claims-triage', '--claim', 'CLM-91077', '--at', '2026-03-04'];
    const recorded = await cli([...record, '--run-id', '00000000abcd', '--json'], { env });
    expect(JSON.parse(recorded.stdout)).toMatchObject({ mode: 'record', runId: '00000000abcd', status: 'failed' });
    const listed = await cli(['runs', '--json'], { env });
    expect(JSON.parse(listed.stdout)).toMatchObject({ runs: [{ runId: '00000000abcd' }], next: null });
    expect(JSON.parse((await cli(['show', '00000000abcd', '--json'], { env })).stdout)).toMatchObject({
      runId: '00000000abcd',
      steps: expect.arrayContaining([expect.objectContaining({ step: 9 })]),
    });
  });

  it('reads a schema without forkpoint tables as an empty store, and creates nothing', async () => {
    const schema = freshSchemaName();
    const db = schemaUrl(schema);
    const runs = await cli(['runs', '--json', '--db', db]);
    expect(runs.exit).toBe(0);
    expect(JSON.parse(runs.stdout)).toEqual({ runs: [], next: null });
    for (const command of [
      ['show', '9b40c1d5'],
      ['tree', '9b40c1d5'],
      ['fork', '9b40c1d5', '--at-step', '4', '--tool-error', 'down'],
      ['resume', '9b40c1d5'],
    ]) {
      const result = await cli([...command, '--db', db]);
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `^forkpoint: RUN_NOT_FOUND: no run 9b40c1d5: there is no forkpoint store at postgres://[^ ]*\\?schema=${schema} yet\\n$`,
        ),
      );
    }
    expect((await cli(['gc', '--db', db])).stderr).toMatch(
      /^forkpoint: RUN_NOT_FOUND: there is no forkpoint store at .*; nothing to collect/,
    );
    expect((await cli(['retention', '--json', '--db', db])).stdout).toMatch(/"storeId": null/);
    expect((await cli(['copy', '--from', db, '--to', join(folder.path, 'nothing.db')])).stderr).toMatch(
      /^forkpoint: RUN_NOT_FOUND: there is no forkpoint store at .*; nothing to copy/,
    );
    expect(await schemaExists(schema)).toBe(false);
  });

  it('says a login the server refuses in one line, exit 2, without the password', async () => {
    const url = new URL(postgresTestUrl() ?? '');
    url.password = 'not-the-password-7f3a';
    const source = join(folder.path, 'source.db');
    await sqliteStore({ path: source }).close();
    for (const args of [
      ['runs', '--db', url.href],
      ['show', '9b40c1d5', '--json', '--db', url.href],
      ['copy', '--from', source, '--to', url.href],
    ]) {
      const result = await cli(args);
      expect(result.exit).toBe(2);
      expect(`${result.stdout}${result.stderr}`).not.toContain('not-the-password-7f3a');
      expect(result.stderr).toMatch(/^forkpoint: STORE_UNREACHABLE: .*postgres:\/\/[^:@/]+@[^ ]+/);
    }
  });
});
