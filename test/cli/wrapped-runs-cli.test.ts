import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { forkpoint } from '../support/forkpoint-process.js';
import { WRAPPED_AGENT } from '../wrap/support/wrapped-runs.js';
import { READ_AFTER, WRAPPED_MADE, wrappedStoreFixture } from '../wrap/support/wrapped-store.js';

const EXPIRED = '2026-03-08T10:00:00.000Z';
const fixture = wrappedStoreFixture('forkpoint-wrapped-cli-');
const { run, json, db } = fixture;

interface Listed {
  readonly runId: string;
  readonly mode: string;
  readonly loop?: string;
  readonly steps?: readonly { readonly kind: string; readonly index: number; readonly provenance: string }[];
}

describe('the reading commands over a wrapped loop’s runs (the built CLI)', () => {
  it('runs: lists the recording, its strict replay and its fork, the fork as fork:prefix', async () => {
    const listed = await json<{ runs: Listed[] }>(['runs']);
    expect(listed.runs.map((each) => [each.runId, each.mode, each.loop])).toEqual([
      [fixture.ids.forked, 'fork:prefix', 'wrapped'],
      [fixture.ids.replayed, 'replay:strict', 'wrapped'],
      [fixture.ids.recorded, 'record', 'wrapped'],
    ]);
    const text = await run(['runs']);
    expect(text.exit).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`^${fixture.ids.forked} +fork:prefix +${WRAPPED_AGENT}/default .* ${fixture.ids.recorded}@4 `, 'm'),
    );
  });

  it('show: every step of the fork, its headline saying it is a fork by prefix replay', async () => {
    const shown = await run(['show', fixture.ids.forked]);
    expect(shown.exit).toBe(0);
    const [headline] = shown.stdout.split('\n');
    expect(headline).toMatch(
      new RegExp(
        `^fork:prefix · run ${fixture.ids.forked} · ${WRAPPED_AGENT}/default \\(code [0-9a-f]+\\) \\(your own loop\\)`,
      ),
    );
    expect(headline).toContain(`re-run over the recording of run ${fixture.ids.recorded} up to step 4`);
    expect(headline).toContain('a fork by prefix replay, no state restored');
    const table = shown.stdout.slice(0, shown.stdout.indexOf('\ncompleted:'));
    const calls = [...table.matchAll(/^ +(\d) +([a-z_]+#\d) +([a-z]+) /gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    expect(calls).toEqual([
      '1 model#0 inherited',
      '2 fetch_claim#0 inherited',
      '3 model#1 inherited',
      '4 ocr_document#0 override',
      '5 model#2 live',
      '6 estimate_repair#0 live',
      '7 model#3 live',
    ]);
    expect(shown.stdout).toContain('completed: {"decision":"approve"}');
    const document = await json<Listed>(['show', fixture.ids.forked]);
    expect(document.mode).toBe('fork:prefix');
    expect(document.steps?.map((step) => step.provenance)).toEqual([
      'inherited',
      'inherited',
      'inherited',
      'override',
      'live',
      'live',
      'live',
    ]);
  });

  it('show --step: the checkpoint after a wrapped step, the conversation the loop sent so far', async () => {
    const checkpoint = await json<{ context: { messages: { role: string }[]; step: number } }>([
      'show',
      fixture.ids.forked,
      '--step',
      '5',
    ]);
    expect(checkpoint.context.step).toBe(5);
    expect(checkpoint.context.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(JSON.stringify(checkpoint.context.messages.at(-1))).toContain('2050');
  });

  it('tree: the fork under its parent, the replay too', async () => {
    const tree = await run(['tree', fixture.ids.recorded]);
    expect(tree.exit).toBe(0);
    const lines = tree.stdout.split('\n');
    expect(lines[1]).toMatch(new RegExp(`^▶ ${fixture.ids.recorded} record `));
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^  └ replay: ${fixture.ids.replayed} replay:strict `)),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^  └ fork at step 4 \\(tool-merge: replace invoiceTotal 205 -> 2050\\): ${fixture.ids.forked} fork:prefix `,
        ),
      ),
    );
    const document = await json<{ tree: { run: Listed; children: { run: Listed }[] } }>(['tree', fixture.ids.recorded]);
    expect(document.tree.run.runId).toBe(fixture.ids.recorded);
    expect(document.tree.children.map((child) => [child.run.runId, child.run.mode]).sort()).toEqual(
      [
        [fixture.ids.replayed, 'replay:strict'],
        [fixture.ids.forked, 'fork:prefix'],
      ].sort(),
    );
  });

  it('compare: the first divergence at step 4, on the response', async () => {
    const compared = await run(['compare', fixture.ids.recorded, fixture.ids.forked]);
    expect(compared.exit).toBe(0);
    expect(compared.stdout).toContain(
      `compare · run ${fixture.ids.recorded} (record) vs run ${fixture.ids.forked} (fork:prefix)`,
    );
    expect(compared.stdout).toContain('first divergence: step 4, ocr_document#0, on the response');
    const document = await json<{ firstDivergence: unknown; b: Listed }>([
      'compare',
      fixture.ids.recorded,
      fixture.ids.forked,
    ]);
    expect(document.firstDivergence).toEqual({ step: 4, kind: 'ocr_document', index: 0, on: 'response' });
    expect(document.b.mode).toBe('fork:prefix');
  });

  it('export: a cassette file that says its loop is wrapped, which readCassette reads back', async () => {
    const file = join(fixture.folder, 'cassettes', 'wrapped.json');
    mkdirSync(join(fixture.folder, 'cassettes'), { recursive: true });
    const exported = await json<{ mode: string; entries: number }>(['export', fixture.ids.recorded, '-o', file]);
    expect(exported).toMatchObject({ mode: 'export', entries: 7 });
    const store = sqliteStore({ path: db });
    try {
      const cassette = await createEngine({ store, clock: () => new Date(WRAPPED_MADE) }).readCassette(
        readFileSync(file, 'utf8'),
        file,
      );
      expect(cassette.loop).toBe('wrapped');
      expect(cassette.source.runId).toBe(fixture.ids.recorded);
      expect(cassette.entries.map((entry) => `${entry.kind}#${entry.index}`)).toEqual([
        'model#0',
        'fetch_claim#0',
        'model#1',
        'ocr_document#0',
        'model#2',
        'estimate_repair#0',
        'model#3',
      ]);
    } finally {
      await store.close();
    }
  });

  it('report: an HTML file of the fork, with its mode and what it is', async () => {
    const file = join(fixture.folder, 'fork.html');
    const written = await run(['report', fixture.ids.forked, '-o', file]);
    expect(written.stderr).toBe('');
    expect(written.exit).toBe(0);
    expect(written.stdout).toContain(`report · run ${fixture.ids.forked} (fork:prefix) · 7 steps`);
    const report = readFileSync(file, 'utf8');
    expect(report).toContain('<span class="mode mode-fork-prefix">fork:prefix</span>');
    expect(report).toContain('a fork by prefix replay, no state restored');
    for (let step = 1; step <= 7; step++)
      expect(report).toContain(`<section id="run-${fixture.ids.forked}-step-${step}-detail"`);
  });

  it('copy: the fork and the recording it was made from move to another store, and read back the same', async () => {
    const other = join(fixture.folder, 'copied.db');
    const copied = await run(['copy', '--run', fixture.ids.forked, '--to', other]);
    expect(copied.stderr).toBe('');
    expect(copied.exit).toBe(0);
    const there = await forkpoint(['show', fixture.ids.forked, '--db', other, ...READ_AFTER, '--json']);
    expect(JSON.parse(there.stdout)).toEqual(await json<Listed>(['show', fixture.ids.forked]));
  });
});

describe('retention over a wrapped loop’s runs', () => {
  it('gc removes the expired full tier; the structural record remains, and a replay or fork session gets CASSETTE_EXPIRED', async () => {
    const gc = await forkpoint(['gc', '--db', db, '--now', EXPIRED, '--json']);
    expect(gc.exit).toBe(0);
    const report = JSON.parse(gc.stdout) as { purged: { runId: string }[] };
    expect(report.purged.map((purged) => purged.runId).sort()).toEqual(Object.values(fixture.ids).sort());
    expect(existsSync(db)).toBe(true);

    const after = ['--db', db, '--now', EXPIRED, '--json'];
    const shown = JSON.parse((await forkpoint(['show', fixture.ids.forked, ...after])).stdout) as Listed & {
      retention: { purge: unknown; expired: boolean };
    };
    expect(shown).toMatchObject({ mode: 'fork:prefix', loop: 'wrapped', steps: [] });
    expect(shown.retention.expired).toBe(true);
    const structural = join(fixture.folder, 'structural.json');
    const exported = await forkpoint([
      'export',
      fixture.ids.recorded,
      '--tier',
      'structural',
      '-o',
      structural,
      ...after,
    ]);
    expect(exported.exit).toBe(0);
    const shape = JSON.parse(readFileSync(structural, 'utf8')) as { tier: string; loop?: string; entries: unknown[] };
    expect(shape).toMatchObject({ tier: 'structural', loop: 'wrapped' });
    expect(shape.entries).toHaveLength(7);

    const store = sqliteStore({ path: db });
    try {
      const engine = createEngine({ store, clock: () => new Date(EXPIRED) });
      const requests = fixture.emulator.received().length;
      await expect(
        engine.session({ mode: 'replay:strict', agent: WRAPPED_AGENT, source: fixture.ids.recorded }),
      ).rejects.toMatchObject({ code: 'CASSETTE_EXPIRED' });
      await expect(
        engine.session({
          mode: 'fork:prefix',
          agent: WRAPPED_AGENT,
          source: fixture.ids.recorded,
          atStep: 4,
          override: { kind: 'tool-merge', patch: { invoiceTotal: 2050 } },
        }),
      ).rejects.toMatchObject({ code: 'CASSETTE_EXPIRED' });
      // Refused as they opened, before the loop made a call.
      expect(fixture.emulator.received().length).toBe(requests);
    } finally {
      await store.close();
    }
  });
});
