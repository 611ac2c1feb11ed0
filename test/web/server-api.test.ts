import { describe, expect, it } from 'vitest';
import { cliJson } from '../support/demo-answers.js';
import { httpRequest } from '../support/http-get.js';
import { useDemoUi } from '../support/demo-ui.js';
import { INCIDENT_ID } from '../support/web-demo.js';

// Each page's data at /api is the document the CLI prints with --json for the same store.
const demo = useDemoUi('forkpoint-ui-api-');
const { db } = demo;

describe('the JSON documents of the view are the CLI --json documents', () => {
  it('/api/runs is `runs --json`, filtered and paged alike', async () => {
    expect(await demo.api('/api/runs')).toEqual(await cliJson(['runs', '--db', db]));
    expect(await demo.api('/api/runs?limit=3&mode=reexecution')).toEqual(
      await cliJson(['runs', '--limit', '3', '--mode', 'reexecution', '--db', db]),
    );
    expect(await demo.api('/api/runs?status=failed&build=patched')).toEqual(
      await cliJson(['runs', '--status', 'failed', '--build', 'patched', '--db', db]),
    );
    const first = (await demo.api('/api/runs?limit=5')) as { next: string };
    expect(await demo.api(`/api/runs?limit=5&before=${first.next}`)).toEqual(
      await cliJson(['runs', '--limit', '5', '--before', first.next, '--db', db]),
    );
    expect(await demo.api('/api/runs?since=2000-01-01')).toEqual(
      await cliJson(['runs', '--since', '2000-01-01', '--db', db]),
    );
  });

  it('/api/runs/<id> is `show <id> --json`, for the incident and its fork', async () => {
    const incident = (await demo.api(`/api/runs/${INCIDENT_ID}`)) as { steps: unknown[] };
    expect(incident.steps).toHaveLength(9);
    expect(incident).toEqual(await cliJson(['show', INCIDENT_ID, '--db', db]));
    expect(await demo.api(`/api/runs/${demo.forkId}`)).toEqual(await cliJson(['show', demo.forkId, '--db', db]));
  });

  it('/api/runs/<id>/checkpoints/4 is `show <id> --step 4 --json`, and so is checkpoint 0', async () => {
    const checkpoint = (await demo.api(`/api/runs/${INCIDENT_ID}/checkpoints/4`)) as { step: number; mode: string };
    expect(checkpoint).toMatchObject({ mode: 'record', runId: INCIDENT_ID, step: 4 });
    expect(checkpoint).toEqual(await cliJson(['show', INCIDENT_ID, '--step', '4', '--db', db]));
    expect(await demo.api(`/api/runs/${demo.forkId}/checkpoints/4`)).toEqual(
      await cliJson(['show', demo.forkId, '--step', '4', '--db', db]),
    );
    expect(await demo.api(`/api/runs/${demo.forkId}/checkpoints/0`)).toEqual(
      await cliJson(['show', demo.forkId, '--step', '0', '--db', db]),
    );
  });

  it('/api/runs/<id>/tree is `tree <id> --json`', async () => {
    expect(await demo.api(`/api/runs/${INCIDENT_ID}/tree`)).toEqual(await cliJson(['tree', INCIDENT_ID, '--db', db]));
    expect(await demo.api(`/api/runs/${demo.forkId}/tree`)).toEqual(await cliJson(['tree', demo.forkId, '--db', db]));
  });

  it('/api/compare?a=&b= is `compare a b --json`, first divergence at step 4', async () => {
    const comparison = (await demo.api(`/api/compare?a=${INCIDENT_ID}&b=${demo.forkId}`)) as {
      firstDivergence: { step: number };
    };
    expect(comparison.firstDivergence).toMatchObject({ step: 4, kind: 'ocr_document', index: 0, on: 'response' });
    expect(comparison).toEqual(await cliJson(['compare', INCIDENT_ID, demo.forkId, '--db', db]));
    expect(await demo.api(`/api/compare?a=${demo.forkId}&b=${INCIDENT_ID}`)).toEqual(
      await cliJson(['compare', demo.forkId, INCIDENT_ID, '--db', db]),
    );
  });

  it('each page links to its document', async () => {
    const links: [string, string][] = [
      ['/runs?mode=fork', '/api/runs?mode=fork'],
      [`/runs/${INCIDENT_ID}?step=4`, `/api/runs/${INCIDENT_ID}`],
      [`/compare?a=${INCIDENT_ID}&b=${demo.forkId}`, `/api/compare?a=${INCIDENT_ID}&amp;b=${demo.forkId}`],
    ];
    for (const [page, json] of links) {
      const body = (await httpRequest(demo.ui.server.url, page)).body;
      expect(body, page).toContain(`<a class="json-link" href="${json}">`);
    }
  });
});
