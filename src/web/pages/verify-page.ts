import type { Verdict } from '../../analysis/index.js';
import type { Lineage } from '../../engine/index.js';
import type {
  StoredVerificationQuery,
  StoredVerificationRef,
  VerificationArm,
  VerifyResult,
} from '../../workflows/index.js';
import { verificationsIn } from '../../workflows/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';
import { fieldChanges } from './field-changes.js';
import { modeLabel, statusBadge } from './labels.js';
import type { PageLinks } from './page-links.js';
import { runRef } from './run-ref.js';
import type { RunWords } from './run-words.js';

/** What the verify page draws: `verify --json` read from the store, and the recording's other verifications. */
export interface VerifyPageData {
  readonly result: VerifyResult;
  /** The recording's scenario, whose words say how it ended. */
  readonly scenario: string | null;
  /** Every verification the recording has stored (see `storedVerifications`), to go to another. */
  readonly verifications: readonly StoredVerificationRef[];
}

// A glyph beside each verdict's word: the colour is never the only sign.
const VERDICT_GLYPH: Readonly<Record<Verdict, string>> = {
  'fix-confirmed': '✓',
  'not-reproducible': '∅',
  'not-fixed': '✗',
  'candidate-diverged': '≠',
  blocked: '⛔',
  flaky: '≈',
};

/**
 * A verification read from the store: the verdict and why, the recording and
 * how it ended, both arms as a table (build, outcome counts, each run linked
 * with the compare of the recording against it), and the candidate's first
 * divergence with its field diff when there is one. Nothing is run to draw it.
 */
export function verifyPage(data: VerifyPageData, links: PageLinks, words: RunWords): Html {
  const { result } = data;
  const { recording } = result;
  const good = result.verdict === 'fix-confirmed';
  return html`<article class="verify" id="verify" data-verdict="${result.verdict}">
    <h1>verify run ${runRef(result.runId, links)} ${modeLabel(result.mode)}</h1>
    <p class="headline">candidate ${result.candidate.build} against control ${result.control.build} · arms of ${result.mode} ×${result.repeats}</p>
    <p class="verdict verdict-${good ? 'good' : 'bad'}"><strong><span aria-hidden="true">${VERDICT_GLYPH[result.verdict]}</span>
      verdict: ${result.verdict}</strong>: ${result.reason}</p>
    <p>the recording: ${statusBadge(recording.status)} ${words.ending({ ...recording, scenario: data.scenario })}</p>
    <p class="muted">Judged from the runs in the store: drawing this page ran nothing.</p>
    <table class="arms" aria-label="arms">
      <thead><tr><th scope="col">arm</th><th scope="col">build</th><th scope="col">outcomes</th><th scope="col">runs</th></tr></thead>
      <tbody>
        ${armRow('candidate', result.candidate, result.runId, links)}
        ${armRow('control', result.control, result.runId, links)}
      </tbody>
    </table>
    ${divergenceSection(result, links)}
    ${otherVerifications(data, links)}
  </article>`;
}

function armRow(arm: 'candidate' | 'control', side: VerificationArm, recording: string, links: PageLinks): Html {
  const outcomes = Object.entries(side.outcomes).map(
    ([key, count]) => html`<li data-outcome="${key}"><span class="num">${count}/${side.runs.length}</span> ${key}</li>`,
  );
  const runs = side.runs.map((runId) => {
    const compare = links.compare(recording, runId);
    return html`<li>${runRef(runId, links)}${compare === null ? null : html` <a data-compare href="${compare}">compare</a>`}</li>`;
  });
  return html`<tr data-arm="${arm}">
    <td>${arm}</td>
    <td><code>${side.build}</code></td>
    <td><ul class="counts">${outcomes}</ul></td>
    <td><ul class="run-list">${runs}</ul></td>
  </tr>`;
}

function divergenceSection(result: VerifyResult, links: PageLinks): Html | null {
  const found = result.divergence;
  if (found === null) return null;
  const compare = links.compare(result.runId, found.runId);
  return html`<section class="panel findings" aria-label="the candidate's divergence">
    <h2>≠ the candidate's first divergence: <strong>${found.classification}</strong> at step ${found.step},
      <code>${found.kind}#${found.index}</code></h2>
    <p>in ${runRef(found.runId, links)}${compare === null ? null : html` (<a data-compare href="${compare}">compare with the recording</a>)`}: ${found.message}</p>
    ${fieldChanges(found.diff, 'the recorded request against the replayed one')}
  </section>`;
}

function otherVerifications(data: VerifyPageData, links: PageLinks): Html | null {
  if (data.verifications.length === 0) return null;
  return html`<nav class="verifications" aria-label="verifications">
    <h2>verifications of this run in the store</h2>
    <ul>${data.verifications.map((ref) => verificationLink(ref, links))}</ul>
  </nav>`;
}

/**
 * The verifications a run's lineage holds with the run as the recording, as
 * links, for its page; null when it holds none or the links have no verify page (a report file).
 */
export function verificationsOfRun(lineage: Lineage, links: PageLinks): Html | null {
  const refs = verificationsIn(lineage);
  const [first] = refs;
  if (first === undefined || links.verify(queryOf(first)) === null) return null;
  return html`<nav class="verifications" aria-label="verifications">
    <h2>verifications of this run</h2>
    <ul>${refs.map((ref) => verificationLink(ref, links))}</ul>
  </nav>`;
}

/** A link to a stored verification, in words: what a run page lists of its recording's verifications. */
export function verificationLink(ref: StoredVerificationRef, links: PageLinks): Html {
  const href = links.verify(queryOf(ref));
  const words = `${ref.candidate} against ${ref.baseline}, ${ref.mode === 'replay' ? 'strict replays' : `re-executions at ${ref.at ?? '?'}`}`;
  const counts = ` (${ref.runs.candidate} + ${ref.runs.control} runs)`;
  return html`<li data-verification="${ref.mode}">${href === null ? words : html`<a href="${href}">${words}</a>`}<span class="muted">${counts}</span></li>`;
}

function queryOf(ref: StoredVerificationRef): StoredVerificationQuery {
  const { runId, candidate, baseline, mode, at } = ref;
  return { runId, candidate, baseline, mode, ...(at === null ? {} : { at }) };
}
