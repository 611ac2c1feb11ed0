import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../support/cli-harness.js';
import { cliJson } from '../support/demo-answers.js';
import { embeddedDocuments, expectSelfContained } from '../support/report-file.js';
import { buildDemo, INCIDENT_ID, runBin } from '../support/web-demo.js';

const folder = tempFolder('forkpoint-report-cli-');
const db = join(folder.path, 'demo.db');
let forkId: string;
beforeAll(() => {
  forkId = buildDemo(db).forkId;
});
afterAll(() => {
  folder.cleanup();
});

const out = (name: string): string => join(folder.path, name);

describe('forkpoint report <run> -o FILE', () => {
  it('writes one self-contained file of the incident, embedding `show --json` and `tree --json`', async () => {
    const file = out('incident.html');
    const result = await cli(['report', INCIDENT_ID, '-o', file, '--db', db]);
    expect(result.stderr).toBe('');
    expect(result.exit).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^report · run ${INCIDENT_ID} \\(record\\) · 9 steps, synthetic tier · [\\d.]+ KB · ${file}\\n$`),
    );
    const report = readFileSync(file, 'utf8');
    expectSelfContained(report);
    expect(embeddedDocuments(report)).toEqual({
      show: await cliJson(['show', INCIDENT_ID, '--db', db]),
      tree: await cliJson(['tree', INCIDENT_ID, '--db', db]),
      compare: null,
    });
    expect(report).not.toContain('<article class="compare"');
    // Every step's detail is in the file, each under its own anchor, with the checkpoint after it.
    for (let step = 1; step <= 9; step++) {
      expect(report).toContain(`<section id="run-${INCIDENT_ID}-step-${step}-detail"`);
      expect(report).toContain(`<summary>checkpoint after step ${step}</summary><div class="json">`);
    }
    expect(report).toContain('DOC-77120: damage_area_cm2 205 @ 0.38 (ocr v1)');
    expect(report).toMatch(/static report of run <code>9b40c1d5<\/code>,\s+written \d{4}-\d\d-\d\dT/);
  });

  it('--compare adds the compare page, embedding `compare --json`, the first divergence at step 4', async () => {
    const file = out('compared.html');
    const result = await cli(['report', INCIDENT_ID, '--compare', forkId, '-o', file, '--json', '--db', db]);
    expect(result.exit).toBe(0);
    const summary = JSON.parse(result.stdout) as { bytes: number };
    expect(summary).toMatchObject({
      mode: 'report',
      runId: INCIDENT_ID,
      compare: forkId,
      file,
      steps: 9,
      tier: 'synthetic',
    });
    const report = readFileSync(file, 'utf8');
    expect(summary.bytes).toBe(Buffer.byteLength(report));
    expectSelfContained(report);
    const documents = embeddedDocuments(report);
    expect(documents.compare).toEqual(await cliJson(['compare', INCIDENT_ID, forkId, '--db', db]));
    expect(documents.show).toEqual(await cliJson(['show', INCIDENT_ID, '--db', db]));
    expect(report).toContain('<article class="compare" id="compare">');
    expect([...report.matchAll(/<tr [^>]*data-step="(\d+)"[^>]*data-first-divergence/g)].map((m) => m[1])).toEqual([
      '4',
    ]);
    // The run in the file links to its compare section; a run the file does not hold is plain text, not a link.
    expect(report).toContain(`<a href="#run-${INCIDENT_ID}">`);
    expect(report).not.toContain(`href="#run-${forkId}"`);
    expect(report).toContain(`<span class="run-ref" data-run-link="${forkId}">`);
  });

  it('a report of the fork, through bin/forkpoint.js: the same documents as `show` and `tree` print', () => {
    const file = out('fork.html');
    const result = runBin(['report', forkId, '--compare', INCIDENT_ID, '-o', file, '--db', db]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = readFileSync(file, 'utf8');
    expectSelfContained(report);
    const documents = embeddedDocuments(report);
    expect(documents.show).toEqual(JSON.parse(runBin(['show', forkId, '--json', '--db', db]).stdout));
    expect(documents.tree).toEqual(JSON.parse(runBin(['tree', forkId, '--json', '--db', db]).stdout));
    expect(documents.compare).toEqual(
      JSON.parse(runBin(['compare', forkId, INCIDENT_ID, '--json', '--db', db]).stdout),
    );
    expect(report).toContain('◆ override at step 4');
  });

  it('replaces a file already there, whole', async () => {
    const file = out('again.html');
    writeFileSync(file, 'an old report');
    expect((await cli(['report', INCIDENT_ID, '-o', file, '--db', db])).exit).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^<!doctype html>/);
  });
});

describe('what forkpoint report refuses, writing nothing', () => {
  it.each([
    [['report', 'deadbeef'], 'RUN_NOT_FOUND', /no run deadbeef/],
    [['report', INCIDENT_ID, '--compare', 'deadbeef0000'], 'RUN_NOT_FOUND', /no run deadbeef0000/],
    [['report', 'nope'], 'USAGE', /run id "nope"/],
  ])('%j: exit 2, one line, %s, no file', async (args, code, message) => {
    const file = out(`refused-${code}-${args.length}.html`);
    const result = await cli([...args, '-o', file, '--db', db]);
    expect(result.exit).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^forkpoint: ${code}: [^\\n]+\\n$`));
    expect(result.stderr).toMatch(message);
    expect(existsSync(file)).toBe(false);
  });

  it('an unknown run in a database that does not exist: RUN_NOT_FOUND, and neither file made', async () => {
    const missing = out('missing.db');
    const result = await cli(['report', INCIDENT_ID, '-o', out('none.html'), '--db', missing]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(/^forkpoint: RUN_NOT_FOUND: no run 9b40c1d5: there is no database at /);
    expect([existsSync(missing), existsSync(out('none.html'))]).toEqual([false, false]);
  });

  it('a path in a folder that does not exist: exit 2, one line, and nothing left anywhere', async () => {
    const before = readdirSync(folder.path);
    const file = join(folder.path, 'no-such-folder', 'report.html');
    const result = await cli(['report', INCIDENT_ID, '-o', file, '--db', db]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(
      /^forkpoint: USAGE: cannot write [^\n]*no-such-folder\/report\.html \(ENOENT[^\n]*\n$/,
    );
    expect(existsSync(join(folder.path, 'no-such-folder'))).toBe(false);
    expect(readdirSync(folder.path)).toEqual(before);
  });

  it('a path that is a folder: exit 2, the folder as it was, no hidden file left beside it', async () => {
    const target = out('a-folder');
    mkdirSync(target);
    const before = readdirSync(folder.path);
    const result = await cli(['report', INCIDENT_ID, '-o', target, '--db', db]);
    expect(result.exit).toBe(2);
    expect(result.stderr).toMatch(/^forkpoint: USAGE: cannot write [^\n]*a-folder \([^\n]*\n$/);
    expect(readdirSync(target)).toEqual([]);
    expect(readdirSync(folder.path)).toEqual(before);
  });
});
