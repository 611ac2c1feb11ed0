import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../support/cli-harness.js';
import { cliJson } from '../support/demo-answers.js';
import { httpRequest } from '../support/http-get.js';
import { sectionOf } from '../support/markup-tags.js';
import type { TestUi } from '../support/ui-over-store.js';
import { startTestUi } from '../support/ui-over-store.js';
import { buildDemo, INCIDENT_ID } from '../support/web-demo.js';

// The demo's database: its newest runs are the synthetic eval's recordings, which fill the first page of runs.
const folder = tempFolder('forkpoint-ui-lineages-');
const db = join(folder.path, 'demo.db');
let ui: TestUi;
beforeAll(async () => {
  buildDemo(db);
  ui = await startTestUi(db);
});
afterAll(async () => {
  await ui.close();
  folder.cleanup();
});

interface TreeNode {
  readonly relation: string;
  readonly children: readonly TreeNode[];
}

async function page(path: string): Promise<string> {
  const answer = await httpRequest(ui.server.url, path);
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('the runs page of forkpoint ui: recent lineages', () => {
  it('points to the incident even when the newest page of runs does not hold it', async () => {
    const markup = await page('/runs');
    const table = sectionOf(markup, '<table class="runs">', '</table>');
    expect(table).not.toContain(`data-run-id="${INCIDENT_ID}"`);
    const lineages = sectionOf(markup, '<section class="panel lineages"', '</section>');
    const entry = sectionOf(lineages, `<li data-lineage="${INCIDENT_ID}">`, '</li>');
    expect(entry).toContain(`href="/runs/${INCIDENT_ID}"`);
    expect(entry).toContain('failed');
  });

  it("counts the incident's forks, replays and re-executions as its lineage tree has them", async () => {
    const tree = (await cliJson(['tree', INCIDENT_ID, '--db', db])) as { tree: TreeNode };
    const of = (relation: string): number => tree.tree.children.filter((child) => child.relation === relation).length;
    const entry = sectionOf(await page('/runs'), `<li data-lineage="${INCIDENT_ID}">`, '</li>');
    const counted = (noun: string, plural: string, n: number): string => `${n} ${n === 1 ? noun : plural}`;
    expect(of('fork')).toBeGreaterThan(0);
    expect(entry).toContain(counted('fork', 'forks', of('fork')));
    expect(entry).toContain(counted('replay', 'replays', of('replay')));
    expect(entry).toContain(counted('re-execution', 're-executions', of('reexecution')));
  });

  it('shows no lineages on a filtered page or a later one, and leaves the JSON as runs --json prints it', async () => {
    expect(await page('/runs?mode=record')).not.toContain('class="panel lineages"');
    const first = (await cliJson(['runs', '--db', db])) as { next: string };
    expect(await page(`/runs?before=${first.next}`)).not.toContain('class="panel lineages"');
    const api = await httpRequest(ui.server.url, '/api/runs');
    expect(JSON.parse(api.body)).toEqual(first);
  });
});
