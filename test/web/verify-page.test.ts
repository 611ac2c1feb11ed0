import { describe, expect, it } from 'vitest';
import { ReplayDivergence } from '../../src/analysis/index.js';
import type { VerifyResult } from '../../src/workflows/index.js';
import { storedVerification, storedVerifications, verifyRun } from '../../src/workflows/index.js';
import { SERVER_LINKS, reportLinks } from '../../src/web/pages/page-links.js';
import type { RunWords } from '../../src/web/pages/run-words.js';
import { verifyPage } from '../../src/web/pages/verify-page.js';
import { build, withIncident } from '../support/incident.js';

const PAYLOAD = '<script>alert(1)</script><img src=x onerror=alert(2)>';

/** Words that show what they were given, so a test sees which run's ending the page asked for. */
const WORDS: RunWords = {
  headline: (run) => `headline of ${run.runId}`,
  step: (_run, step) => `a ${step.kind} step`,
  ending: (run) => `ended ${run.status} in ${run.scenario ?? 'no scenario'}: ${run.error?.code ?? 'no error'}`,
};

const result = (over: Partial<VerifyResult> = {}): VerifyResult => ({
  verdict: 'fix-confirmed',
  reason:
    'the control arm still fails as recorded (failed: VALIDATION_FAILED) and the candidate does not: completed: refer 2/2',
  mode: 'replay:strict',
  runId: '9b40c1d5',
  recording: {
    status: 'failed',
    outcome: null,
    error: { code: 'VALIDATION_FAILED', message: 'payout is negative', step: 9 },
  },
  repeats: 2,
  candidate: { build: 'patched', runs: ['1a2b3c4d', '2b3c4d5e'], outcomes: { 'completed: refer': 2 } },
  control: { build: 'baseline', runs: ['3c4d5e6f', '4d5e6f70'], outcomes: { 'failed: VALIDATION_FAILED': 2 } },
  divergence: null,
  ...over,
});

const draw = (verification: VerifyResult, links = SERVER_LINKS): string =>
  verifyPage({ result: verification, scenario: 'scenarios/claims-triage', verifications: [] }, links, WORDS).toString();

describe('the verify page', () => {
  it('says the verdict by glyph and word, with its reason, and how the recording ended', () => {
    const page = draw(result());
    expect(page).toContain('data-verdict="fix-confirmed"');
    expect(page).toMatch(
      /class="verdict verdict-good"><strong><span aria-hidden="true">✓<\/span>\s*verdict: fix-confirmed<\/strong>: the control arm still fails/,
    );
    expect(page).toContain('ended failed in scenarios/claims-triage: VALIDATION_FAILED');
    expect(page).toContain('candidate patched against control baseline · arms of replay:strict ×2');
    expect(draw(result({ verdict: 'not-reproducible', reason: 'gone' }))).toContain('class="verdict verdict-bad"');
  });

  it('draws both arms: build, outcome counts, and each run linked with the compare against the recording', () => {
    const page = draw(result());
    const arm = (name: string) => new RegExp(`<tr data-arm="${name}">([\\s\\S]*?)</tr>`).exec(page)![1]!;
    expect(arm('candidate')).toContain('<code>patched</code>');
    expect(arm('candidate')).toMatch(/<span class="num">2\/2<\/span> completed: refer/);
    expect(arm('control')).toMatch(/<span class="num">2\/2<\/span> failed: VALIDATION_FAILED/);
    expect(arm('control')).toContain('href="/runs/4d5e6f70"');
    expect(arm('control')).toContain('href="/compare?a=9b40c1d5&amp;b=4d5e6f70"');
    expect(page).not.toMatch(/style=/i);
  });

  it('shows the candidate’s divergence with its field diff, payloads as text', () => {
    const divergence = new ReplayDivergence('1a2b3c4d', {
      classification: 'changed',
      step: 1,
      kind: 'model',
      index: 0,
      actualHash: 'aaaa',
      recordedHashes: ['bbbb'],
      changed: ['system'],
      diff: [{ path: 'system', before: 'You are', after: PAYLOAD }],
      message: `model#0 (step 1): changed: system ${PAYLOAD}`,
    });
    const page = draw(result({ verdict: 'candidate-diverged', reason: PAYLOAD, divergence }));
    expect(page).toMatch(/<strong>changed<\/strong> at step 1,\s*<code>model#0<\/code>/);
    expect(page).toContain('<code>system</code> <del>You are</del> <ins>&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('href="/compare?a=9b40c1d5&amp;b=1a2b3c4d"');
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<img');
  });

  it('links the recording’s verifications on the server, and nothing in a report file', () => {
    const verifications = [
      {
        runId: '9b40c1d5',
        mode: 'reexecution' as const,
        candidate: 'patched',
        baseline: 'baseline',
        at: '2026-03-09',
        runs: { candidate: 3, control: 3 },
      },
    ];
    const page = verifyPage({ result: result(), scenario: null, verifications }, SERVER_LINKS, WORDS).toString();
    expect(page).toContain(
      '<a href="/verify?run=9b40c1d5&amp;candidate=patched&amp;baseline=baseline&amp;mode=reexecution&amp;at=2026-03-09">patched against baseline, re-executions at 2026-03-09</a>',
    );
    const offline = draw(result(), reportLinks(new Set(), false));
    expect(offline).not.toContain('href=');
  });

  it('draws a verification read from a store: the timestamped candidate diverges at step 1 on its system prompt', async () => {
    const { engine } = await withIncident();
    await verifyRun(engine, {
      runId: '9b40c1d5',
      candidate: build('timestamped'),
      baseline: build('baseline'),
      mode: 'replay',
    });
    const query = { runId: '9b40c1d5', candidate: 'timestamped', baseline: 'baseline', mode: 'replay' } as const;
    const stored = await storedVerification(engine, query);
    const page = verifyPage(
      {
        result: stored,
        scenario: 'scenarios/claims-triage',
        verifications: await storedVerifications(engine, '9b40c1d5'),
      },
      SERVER_LINKS,
      WORDS,
    ).toString();
    expect(page).toContain('data-verdict="candidate-diverged"');
    expect(page).toMatch(/<li><code>system<\/code> <del>/);
    expect(page).toContain(
      'href="/verify?run=9b40c1d5&amp;candidate=timestamped&amp;baseline=baseline&amp;mode=replay"',
    );
  });
});
