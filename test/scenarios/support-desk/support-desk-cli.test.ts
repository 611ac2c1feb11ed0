import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempFolder } from '../../support/cli-harness.js';

const DIR = 'scenarios/support-desk';

describe('forkpoint on support-desk, offline through the real SDKs', () => {
  let folder: ReturnType<typeof tempFolder>;
  let db: string;
  beforeEach(() => {
    folder = tempFolder('forkpoint-support-desk-');
    db = join(folder.path, 'forkpoint.db');
  });
  afterEach(() => {
    folder.cleanup();
  });
  const run = (args: readonly string[]) => cli([...args, '--db', db]);
  const json = async (args: readonly string[]) => {
    const result = await run([...args, '--json']);
    return { exit: result.exit, body: JSON.parse(result.stdout) as Record<string, unknown> };
  };

  it("lists the scenario's --ticket flag in record's help", async () => {
    const help = await cli(['record', DIR, '--help']);
    expect(help.exit).toBe(0);
    expect(help.stdout).toMatch(/--ticket <VALUE>\s+the ticket to resolve, e.g\. T-2041/);
  });

  it('records, replays strictly, forks the tool result, the prompt and the model, and compares, as on claims-triage', async () => {
    const recorded = await json([
      'record',
      DIR,
      '--ticket',
      'T-2041',
      '--at',
      '2026-03-04',
      '--seed',
      '7',
      '--run-id',
      '5d2041aa0001',
    ]);
    expect(recorded.exit).toBe(1);
    expect(recorded.body).toMatchObject({ status: 'failed', error: { code: 'VALIDATION_FAILED', step: 7 } });

    const replay = await json(['replay', '5d2041aa0001']);
    expect(replay.body).toMatchObject({ mode: 'replay:strict', status: 'failed', sourceRunId: '5d2041aa0001' });

    const article = JSON.stringify({
      articles: [{ article_id: 'KB-31', text: 'Agents may credit up to 20 EUR per ticket on Basic.' }],
    });
    const credit = ['--side-effects', 'issue_credit=simulate'];
    const fixedByTool = await json(['fork', '5d2041aa0001', '--at-step', '4', '--tool-result', article, ...credit]);
    expect(fixedByTool).toMatchObject({ exit: 0, body: { status: 'completed', outcome: { credit: 20 } } });

    const prompt = 'You resolve tickets. Never credit more than the plan limit: 20 EUR on basic, 50 EUR on pro.';
    const byPrompt = await json(['fork', '5d2041aa0001', '--at-step', '1', '--system-prompt', prompt, ...credit]);
    expect(byPrompt.body).toMatchObject({ mode: 'fork', parent: { atStep: 1, override: { kind: 'system-prompt' } } });

    const byModel = await json(['fork', '5d2041aa0001', '--at-step', '1', '--model', 'gpt-5-mini', ...credit]);
    expect(byModel.body).toMatchObject({ mode: 'fork', parent: { override: { kind: 'model', model: 'gpt-5-mini' } } });

    const compared = await run(['compare', '5d2041aa0001', String(fixedByTool.body.runId)]);
    expect(compared.exit).toBe(0);
    expect(compared.stdout).toMatch(/first divergence: step 4, search_kb#0, on the response/);
  });
});
